import { createHash } from "node:crypto";
import { CRC32C } from "@google-cloud/storage";
import type http from "node:http";
import { googleError, HttpFake, json, type RecordedRequest } from "./google-http-fake.js";

/**
 * A local Cloud Storage JSON API (the parts @google-cloud/storage calls for
 * upload, download, metadata, delete and list), for the official SDK pointed
 * at it through `apiEndpoint`. Buckets must be created first; permissions can
 * be denied per bucket to test the error paths.
 */
/** Base64 CRC32C, as Cloud Storage reports it (computed with the SDK's own implementation). */
function crc32c(data: Buffer): string {
  const checksum = new CRC32C();
  checksum.update(data);
  return checksum.toString();
}

export interface StoredObject {
  name: string;
  bucket: string;
  contentType: string;
  data: Buffer;
  generation: number;
}

export const GCS_PERMISSIONS = ["storage.objects.create", "storage.objects.get", "storage.objects.delete", "storage.objects.list"] as const;
export type GcsPermission = (typeof GCS_PERMISSIONS)[number];

export class FakeGcs {
  readonly buckets = new Map<string, Map<string, StoredObject>>();
  private readonly denied = new Map<string, Set<GcsPermission>>();
  private generation = 1;
  private readonly http = new HttpFake((req, res) => this.handle(req, res));

  get requests(): RecordedRequest[] {
    return this.http.requests;
  }
  get url(): string {
    return this.http.url;
  }

  start(port = 0) {
    return this.http.start(port);
  }
  stop() {
    return this.http.stop();
  }

  createBucket(name: string) {
    if (!this.buckets.has(name)) this.buckets.set(name, new Map());
    return this;
  }
  deny(bucket: string, permission: GcsPermission) {
    if (!this.denied.has(bucket)) this.denied.set(bucket, new Set());
    this.denied.get(bucket)!.add(permission);
    return this;
  }
  reset() {
    this.buckets.clear();
    this.denied.clear();
    this.http.requests.length = 0;
  }
  objects(bucket: string): StoredObject[] {
    return [...(this.buckets.get(bucket)?.values() ?? [])];
  }

  private resource(o: StoredObject) {
    return {
      kind: "storage#object",
      id: `${o.bucket}/${o.name}/${o.generation}`,
      name: o.name,
      bucket: o.bucket,
      generation: String(o.generation),
      metageneration: "1",
      contentType: o.contentType,
      size: String(o.data.length),
      md5Hash: createHash("md5").update(o.data).digest("base64"),
      crc32c: crc32c(o.data),
      timeCreated: new Date().toISOString(),
      updated: new Date().toISOString(),
    };
  }

  /** 404 for an unknown bucket, 403 for a denied permission; otherwise the bucket's objects. */
  private guard(res: http.ServerResponse, bucket: string, permission: GcsPermission): Map<string, StoredObject> | null {
    const objects = this.buckets.get(bucket);
    if (!objects) {
      googleError(res, 404, "The specified bucket does not exist.", "notFound");
      return null;
    }
    if (this.denied.get(bucket)?.has(permission)) {
      googleError(res, 403, `fake-sa@example.iam.gserviceaccount.com does not have ${permission} access to the Google Cloud Storage object. Permission '${permission}' denied on resource (or it may not exist).`, "forbidden");
      return null;
    }
    return objects;
  }

  private handle(req: RecordedRequest, res: http.ServerResponse) {
    const upload = req.path.match(/^\/upload\/storage\/v1\/b\/([^/]+)\/o$/);
    if (upload && req.method === "POST") return this.upload(req, res, decodeURIComponent(upload[1]!));
    const object = req.path.match(/^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/);
    if (object) {
      const bucket = decodeURIComponent(object[1]!);
      const name = decodeURIComponent(object[2]!);
      if (req.method === "GET") {
        const objects = this.guard(res, bucket, "storage.objects.get");
        if (!objects) return;
        const found = objects.get(name);
        if (!found) return googleError(res, 404, `No such object: ${bucket}/${name}`, "notFound");
        if (req.query.alt === "media") {
          res.writeHead(200, {
            "content-type": found.contentType,
            "content-length": found.data.length,
            "x-goog-hash": `crc32c=${crc32c(found.data)},md5=${createHash("md5").update(found.data).digest("base64")}`,
            "x-goog-generation": String(found.generation),
          });
          res.end(found.data);
          return;
        }
        return json(res, 200, this.resource(found));
      }
      if (req.method === "DELETE") {
        const objects = this.guard(res, bucket, "storage.objects.delete");
        if (!objects) return;
        if (!objects.delete(name)) return googleError(res, 404, `No such object: ${bucket}/${name}`, "notFound");
        res.writeHead(204);
        res.end();
        return;
      }
    }
    const list = req.path.match(/^\/storage\/v1\/b\/([^/]+)\/o$/);
    if (list && req.method === "GET") {
      const bucket = decodeURIComponent(list[1]!);
      const objects = this.guard(res, bucket, "storage.objects.list");
      if (!objects) return;
      const prefix = req.query.prefix ?? "";
      const items = [...objects.values()].filter((o) => o.name.startsWith(prefix)).sort((a, b) => a.name.localeCompare(b.name));
      return json(res, 200, { kind: "storage#objects", items: items.map((o) => this.resource(o)) });
    }
    googleError(res, 404, `Not found: ${req.method} ${req.path}`, "notFound");
  }

  private upload(req: RecordedRequest, res: http.ServerResponse, bucket: string) {
    const objects = this.guard(res, bucket, "storage.objects.create");
    if (!objects) return;
    let name = req.query.name;
    let contentType = String(req.headers["content-type"] ?? "application/octet-stream");
    let data = req.body;
    if (req.query.uploadType === "multipart") {
      const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
      if (!boundary) return googleError(res, 400, "Missing multipart boundary", "invalid");
      const parts = splitMultipart(req.body, boundary);
      if (parts.length < 2) return googleError(res, 400, "Expected metadata and media parts", "invalid");
      const metadata = JSON.parse(parts[0]!.body.toString("utf8")) as { name?: string; contentType?: string };
      name = metadata.name ?? name;
      contentType = metadata.contentType ?? parts[1]!.headers["content-type"] ?? "application/octet-stream";
      data = parts[1]!.body;
    } else if (req.query.uploadType !== "media") {
      return googleError(res, 400, `Unsupported uploadType ${req.query.uploadType}`, "invalid");
    }
    if (!name) return googleError(res, 400, "Object name is required", "required");
    const stored: StoredObject = { name, bucket, contentType, data, generation: this.generation++ };
    objects.set(name, stored);
    json(res, 200, this.resource(stored));
  }
}

/** The parts of a multipart/related body (also BigQuery's load uploads). */
export function splitMultipart(body: Buffer, boundary: string): { headers: Record<string, string>; body: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    let chunk = body.subarray(start + delimiter.length, next);
    if (chunk.subarray(0, 2).toString() === "\r\n") chunk = chunk.subarray(2);
    if (chunk.subarray(chunk.length - 2).toString() === "\r\n") chunk = chunk.subarray(0, chunk.length - 2);
    const split = chunk.indexOf("\r\n\r\n");
    if (split !== -1) {
      const headers: Record<string, string> = {};
      for (const line of chunk.subarray(0, split).toString("utf8").split("\r\n")) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      parts.push({ headers, body: chunk.subarray(split + 4) });
    }
    start = next;
  }
  return parts;
}

let shared: FakeGcs | undefined;
/** Starts the shared fake (on `port`, or a free one) and returns it. */
export async function start(port = 0): Promise<FakeGcs> {
  shared ??= new FakeGcs();
  if (!shared.url) await shared.start(port);
  return shared;
}
export async function stop(): Promise<void> {
  await shared?.stop();
  shared = undefined;
}
