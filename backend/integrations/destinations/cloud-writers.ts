import { createHash } from "node:crypto";
import type { TableField } from "@google-cloud/bigquery";
import { bigQueryClient, storageClient, type PlatformServiceAccount } from "./google.js";
import { checkName, checkObjectPath, columnsOf, scalar, type DestinationObject, type DestinationWriter, type Row } from "./writer.js";

const keyOf = (row: Row, key: string[]) => createHash("sha256").update(JSON.stringify(key.map((k) => scalar(row[k] ?? null)))).digest("hex");
/** A row's key and content: the same row sent again has the same id; a changed row (another run's) a new one. */
const versionOf = (row: Row, key: string[]) =>
  createHash("sha256")
    .update(JSON.stringify([keyOf(row, key), Object.keys(row).sort().map((k) => [k, scalar(row[k] ?? null)])]))
    .digest("hex");

/**
 * A partial insertAll failure, readable: the SDK's own message says only "A
 * failure occurred during this request."; BigQuery's per-row errors say why.
 * Without skipInvalidRows one invalid row stops the whole request.
 */
function insertFailure(error: unknown): Error {
  const rows = (error as { name?: string; errors?: { errors?: { message?: string; reason?: string }[] }[] }).errors;
  const invalid = (rows ?? []).filter((r) => (r.errors ?? []).some((e) => e.reason !== "stopped"));
  const first = invalid[0]?.errors?.find((e) => e.reason !== "stopped");
  if ((error as Error).name !== "PartialFailureError" || !first) return error as Error;
  return Object.assign(new Error(`BigQuery refused the rows: ${first.message || first.reason} (${invalid.length} of ${rows!.length} invalid; none were written)`), { cause: error });
}

/** Cloud Storage: objects as named; rows as one JSON object per key under tables/<table>/. */
export class GcsWriter implements DestinationWriter {
  constructor(
    private readonly account: PlatformServiceAccount,
    private readonly projectId: string,
    private readonly bucketName: string,
  ) {}

  async writeObjects(objects: DestinationObject[]): Promise<void> {
    const bucket = storageClient(this.account, this.projectId).bucket(this.bucketName);
    for (const object of objects) {
      await bucket.file(checkObjectPath(object.path)).save(typeof object.body === "string" ? object.body : Buffer.from(object.body), {
        resumable: false,
        contentType: object.contentType ?? "application/octet-stream",
      });
    }
  }

  async upsertRows(table: string, rows: Row[], key: string[]): Promise<void> {
    checkName("table", table);
    await this.writeObjects(rows.map((row) => ({ path: `tables/${table}/${keyOf(row, key)}.json`, body: JSON.stringify(row), contentType: "application/json" })));
  }

  async close(): Promise<void> {}
}

const BQ_TYPES = { string: "STRING", number: "FLOAT", boolean: "BOOLEAN", timestamp: "TIMESTAMP", json: "JSON" } as const;

/**
 * BigQuery: rows streamed with tabledata.insertAll, each with an insertId
 * derived from its key and content, so that a retried batch is de-duplicated
 * (best effort, for about a minute) while a changed row — a re-run's, stamped
 * with its run id — is kept. Streaming appends: readers keep one row per key.
 * The table is created on first use. Objects land in an `objects` table
 * (path, content).
 */
export class BigQueryWriter implements DestinationWriter {
  constructor(
    private readonly account: PlatformServiceAccount,
    private readonly projectId: string,
    private readonly datasetName: string,
  ) {}

  async writeObjects(objects: DestinationObject[]): Promise<void> {
    const rows = objects.map((o) => ({
      path: checkObjectPath(o.path),
      content: typeof o.body === "string" ? o.body : Buffer.from(o.body).toString("base64"),
      content_type: o.contentType ?? null,
    }));
    await this.upsertRows("objects", rows, ["path"]);
  }

  async upsertRows(table: string, rows: Row[], key: string[]): Promise<void> {
    checkName("table", table);
    if (rows.length === 0) return;
    const dataset = bigQueryClient(this.account, this.projectId).dataset(this.datasetName);
    const target = dataset.table(table);
    const [exists] = await target.exists();
    if (!exists) {
      const fields: TableField[] = [...columnsOf(rows)].map(([name, kind]) => ({ name, type: BQ_TYPES[kind] }));
      await dataset.createTable(table, { schema: { fields } });
    }
    await target
      .insert(
        rows.map((row) => ({ insertId: versionOf(row, key), json: Object.fromEntries(Object.entries(row).map(([k, v]) => [k, scalar(v)])) })),
        { raw: true },
      )
      .catch((error: unknown) => {
        throw insertFailure(error);
      });
  }

  async close(): Promise<void> {}
}
