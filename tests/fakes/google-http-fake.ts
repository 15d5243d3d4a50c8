/** Shared by the destination fakes (Cloud Storage, BigQuery, Snowflake). */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** What a fake received, for tests to assert on. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (request: RecordedRequest, response: http.ServerResponse) => void | Promise<void>;

/** A tiny node:http server that records every request and hands it to `handler`. */
export class HttpFake {
  readonly requests: RecordedRequest[] = [];
  private server?: http.Server;
  url = "";

  constructor(private readonly handler: Handler) {}

  async start(port = 0): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://fake.invalid");
        const recorded: RecordedRequest = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        this.requests.push(recorded);
        Promise.resolve(this.handler(recorded, res)).catch((error: unknown) => {
          if (!res.headersSent) json(res, 500, { error: { code: 500, message: String((error as Error).message) } });
        });
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", () => resolve());
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Google's JSON error envelope. */
export function googleError(res: http.ServerResponse, code: number, message: string, reason: string) {
  json(res, code, { error: { code, message, errors: [{ message, domain: "global", reason }], status: code === 403 ? "PERMISSION_DENIED" : code === 404 ? "NOT_FOUND" : "INVALID_ARGUMENT" } });
}
