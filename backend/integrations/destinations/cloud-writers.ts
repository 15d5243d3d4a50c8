import { createHash } from "node:crypto";
import type { Dataset, Table, TableField } from "@google-cloud/bigquery";
import { bigQueryClient, storageClient, type PlatformServiceAccount } from "./google.js";
import { checkName, checkObjectPath, columnsOf, scalar, type ColumnKind, type DestinationObject, type DestinationWriter, type Row } from "./writer.js";

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
 * After a column is added, BigQuery's streaming path may answer "no such
 * field" for it for a while (fields added less than SCHEMA_LAG_WINDOW_MS
 * ago), and a row may meet a transient backend error: insertAll is tried
 * again after these waits.
 */
export const SCHEMA_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];
const SCHEMA_LAG_WINDOW_MS = 10 * 60_000;

const statusOf = (error: unknown) => (error as { code?: unknown }).code;
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** BigQuery's per-row reasons that a later attempt may not meet. */
const TRANSIENT_REASONS = new Set(["backendError", "internalError", "timeout"]);

/**
 * Whether a partial insertAll failure is worth another attempt: every row's
 * error is transient, or a "no such field" for a field `lagging` says was
 * just added (BigQuery's streaming path lags schema changes).
 */
function retryable(error: unknown, lagging: (field: string) => boolean): boolean {
  if ((error as Error).name !== "PartialFailureError") return false;
  const rows = (error as { errors?: { errors?: { message?: string; reason?: string }[] }[] }).errors ?? [];
  const errors = rows.flatMap((r) => r.errors ?? []).filter((e) => e.reason !== "stopped");
  return (
    errors.length > 0 &&
    errors.every((e) => {
      if (TRANSIENT_REASONS.has(e.reason ?? "")) return true;
      const field = /^no such field: (.+?)\.?$/.exec(e.message ?? "")?.[1];
      return field !== undefined && lagging(field);
    })
  );
}

/**
 * BigQuery: rows streamed with tabledata.insertAll, each with an insertId
 * derived from its key and content, so that a retried batch is de-duplicated
 * (best effort, for about a minute) while a changed row — a re-run's, stamped
 * with its run id — is kept. Streaming appends: readers keep one row per key.
 * The table is created on first use; a batch's new columns are added to its
 * schema (tables.patch, NULLABLE) before the rows are sent. Objects land in an
 * `objects` table (path, content).
 */
export class BigQueryWriter implements DestinationWriter {
  /** Each table's schema fields, as read, created or patched by this writer. */
  private readonly schemas = new Map<string, TableField[]>();
  /** Per table: fields this writer added (lower-case name → when), for the streaming schema lag. */
  private readonly added = new Map<string, Map<string, number>>();

  constructor(
    private readonly account: PlatformServiceAccount,
    private readonly projectId: string,
    private readonly datasetName: string,
    private readonly retryDelaysMs: readonly number[] = SCHEMA_RETRY_DELAYS_MS,
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
    try {
      await this.ensureSchema(dataset, target, table, columnsOf(rows));
    } catch (error) {
      this.schemas.delete(table);
      throw error;
    }
    const payload = rows.map((row) => ({ insertId: versionOf(row, key), json: Object.fromEntries(Object.entries(row).map(([k, v]) => [k, scalar(v)])) }));
    for (let attempt = 0; ; attempt++) {
      try {
        // No SDK partial retries (they re-send at once): a refused row is refused again; waits are ours.
        await target.insert(payload, { raw: true, partialRetries: 0 });
        return;
      } catch (error) {
        const added = this.added.get(table);
        const lagging = (field: string) => Date.now() - (added?.get(field.toLowerCase()) ?? -Infinity) < SCHEMA_LAG_WINDOW_MS;
        if (attempt >= this.retryDelaysMs.length || !retryable(error, lagging)) {
          // The table may differ from what this writer knows (changed elsewhere): read its schema again next time.
          this.schemas.delete(table);
          throw insertFailure(error);
        }
        await new Promise((resolve) => setTimeout(resolve, this.retryDelaysMs[attempt]));
      }
    }
  }

  /** The table's schema fields, or undefined when there is no such table. */
  private async readSchema(target: Table): Promise<TableField[] | undefined> {
    try {
      const [metadata] = await target.getMetadata();
      return ((metadata as { schema?: { fields?: TableField[] } }).schema?.fields ?? []).map((f) => ({ ...f }));
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  /** Creates the table (or reads its schema) on first use, then adds the batch's columns it lacks. */
  private async ensureSchema(dataset: Dataset, target: Table, table: string, kinds: Map<string, ColumnKind>): Promise<void> {
    let fields = this.schemas.get(table);
    if (!fields) {
      fields = await this.readSchema(target);
      if (!fields) {
        const created: TableField[] = [...kinds].map(([name, kind]) => ({ name, type: BQ_TYPES[kind] }));
        try {
          await dataset.createTable(table, { schema: { fields: created } });
          fields = created;
        } catch (error) {
          // Created meanwhile by another writer: use its schema.
          if (statusOf(error) !== 409) throw error;
          fields = await this.readSchema(target);
          if (!fields) throw error;
        }
      }
      this.schemas.set(table, fields);
    }
    const lacking = (known: TableField[]) => [...kinds].filter(([name]) => !known.some((f) => f.name && sameName(f.name, name)));
    if (lacking(fields).length === 0) return;
    // tables.patch must list every field: start from the table's current schema (another writer may have added some).
    for (let attempt = 0; ; attempt++) {
      const current = (await this.readSchema(target)) ?? fields;
      const adding: TableField[] = lacking(current).map(([name, kind]) => ({ name, type: BQ_TYPES[kind], mode: "NULLABLE" }));
      try {
        if (adding.length) await target.setMetadata({ schema: { fields: [...current, ...adding] } });
      } catch (error) {
        // The schema changed between the read and the patch: read it again, once.
        if (attempt === 0 && statusOf(error) === 400 && /does not match|already exists/i.test(String((error as Error).message))) continue;
        throw error;
      }
      const now = Date.now();
      const added = this.added.get(table) ?? new Map<string, number>();
      for (const field of adding) added.set(field.name!.toLowerCase(), now);
      this.added.set(table, added);
      this.schemas.set(table, [...current, ...adding]);
      return;
    }
  }

  async close(): Promise<void> {
    this.schemas.clear();
  }
}
