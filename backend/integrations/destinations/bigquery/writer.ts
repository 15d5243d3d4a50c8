import { randomBytes } from "node:crypto";
import type { Dataset, Job, JobLoadMetadata, Table, TableField } from "@google-cloud/bigquery";
import { bigQueryClient, type PlatformServiceAccount } from "../kit/google.js";
import { providerTimeoutMs, withDeadline } from "../../../lib/outbound.js";
import { checkObjectPath, checkUpsert, latestPerKey, scalar, tableColumns, type ColumnKind, type DeclaredColumn, type DestinationObject, type DestinationWriter, type Row, type RowValue } from "../writer.js";

const BQ_TYPES = { string: "STRING", number: "FLOAT", boolean: "BOOLEAN", timestamp: "TIMESTAMP", json: "JSON" } as const;

/** Waits before another attempt at a load or a MERGE that BigQuery refused for a passing reason. */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/** A staging table's lifetime in hours: BigQuery deletes it by itself if the writer stops before dropping it. */
export const STAGING_TTL_HOURS = 24;

/** GoogleSQL's names of the schema types (tables.insert speaks FLOAT, DDL FLOAT64). */
const DDL_TYPES: Record<string, string> = { FLOAT: "FLOAT64", INTEGER: "INT64", BOOLEAN: "BOOL" };

/** The DDL of an empty staging table with the target's columns, expiring after STAGING_TTL_HOURS. */
export function stagingStatement(staging: string, fields: TableField[]): string {
  const columns = fields.map((f) => `${quote(f.name!)} ${DDL_TYPES[f.type!.toUpperCase()] ?? f.type!.toUpperCase()}`).join(", ");
  return `CREATE TABLE IF NOT EXISTS ${quote(staging)} (${columns}) OPTIONS (expiration_timestamp = TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL ${STAGING_TTL_HOURS} HOUR))`;
}

/**
 * Bytes of NDJSON per load job: the SDK sends a load as one multipart upload, which Google's upload protocol
 * meant for files of a few MB; a larger batch goes into its staging table in several loads (one MERGE).
 */
export const LOAD_CHUNK_BYTES = 4 * 1024 * 1024;

/** Staging tables are named after their target, so that a user listing the dataset sees what they are. */
export const STAGING_PREFIX = "_tributary_staging_";

const statusOf = (error: unknown) => (error as { code?: unknown }).code;
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const quote = (name: string) => `\`${name}\``;

/** BigQuery's reasons that a later attempt may not meet (a MERGE racing another on the same table among them). */
const TRANSIENT_REASONS = new Set(["backendError", "internalError", "timeout", "rateLimitExceeded", "jobBackendError", "jobInternalError"]);

function transient(error: unknown): boolean {
  const e = error as { code?: number; errors?: { reason?: string }[]; message?: string };
  if ([429, 500, 502, 503].includes(e.code ?? 0)) return true;
  if ((e.errors ?? []).some((x) => TRANSIENT_REASONS.has(x.reason ?? ""))) return true;
  return /could not serialize access to table .* due to concurrent update/i.test(e.message ?? "");
}

/**
 * The MERGE that moves a staging table into its target on the key columns. `columns`: every column of the
 * target; the staging table has them all (NULL where the batch has no value), so a matched row is replaced
 * whole, as the writer contract says.
 */
export function mergeStatement(target: string, staging: string, columns: string[], key: string[]): string {
  const set = columns.filter((c) => !key.some((k) => sameName(k, c))).map((c) => `${quote(c)} = s.${quote(c)}`);
  return [
    `MERGE ${quote(target)} AS t USING ${quote(staging)} AS s ON ${key.map((k) => `t.${quote(k)} = s.${quote(k)}`).join(" AND ")}`,
    ...(set.length ? [`WHEN MATCHED THEN UPDATE SET ${set.join(", ")}`] : []),
    `WHEN NOT MATCHED THEN INSERT (${columns.map(quote).join(", ")}) VALUES (${columns.map((c) => `s.${quote(c)}`).join(", ")})`,
  ].join(" ");
}

/** A row as one NDJSON line: JSON columns take the value itself, other columns the scalar a driver would bind. */
function ndjsonLine(row: Row, jsonColumns: Set<string>): string {
  const out: Record<string, RowValue> = {};
  for (const [name, value] of Object.entries(row)) {
    if (value === null || value === undefined) continue;
    out[name] = jsonColumns.has(name.toLowerCase()) && typeof value === "object" && !(value instanceof Date) ? value : scalar(value);
  }
  return JSON.stringify(out);
}

type LoadErrors = { message?: string; reason?: string }[];

/** NDJSON lines in runs of at most LOAD_CHUNK_BYTES (a longer line alone). */
function chunks(lines: string[]): string[][] {
  const out: string[][] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    if (out.length === 0 || bytes + size > LOAD_CHUNK_BYTES) {
      out.push([]);
      bytes = 0;
    }
    out.at(-1)!.push(line);
    bytes += size;
  }
  return out;
}

/** A load whose rows BigQuery refused (its per-row reasons), readable: nothing of the batch reached the table. */
function refusal(errors: LoadErrors, bad: number, total: number): Error {
  const first = errors.find((e) => e.message || e.reason);
  return new Error(`BigQuery refused the rows: ${first?.message || first?.reason || "invalid rows"} (${bad} of ${total} invalid; none were written)`);
}

/**
 * BigQuery, as Fivetran loads it: each batch goes into a staging table of its own (CREATE TABLE with the
 * target's columns, expiring after STAGING_TTL_HOURS) by load jobs (NDJSON), then one MERGE on the key
 * columns moves it into the target and the staging table is dropped. A re-run, a retried batch or a changed
 * record leaves one row per key; DML sees a new column at once (no streaming-buffer lag). The target is
 * created on first use; a batch's new columns are added to its schema (tables.patch, NULLABLE) first.
 * Objects land in an `objects` table (path, content).
 */
export class BigQueryWriter implements DestinationWriter {
  /** Each table's schema fields, as read, created or patched by this writer. */
  private readonly schemas = new Map<string, TableField[]>();

  constructor(
    private readonly account: PlatformServiceAccount,
    private readonly projectId: string,
    private readonly datasetName: string,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  async writeObjects(objects: DestinationObject[]): Promise<void> {
    const rows = objects.map((o) => ({
      path: checkObjectPath(o.path),
      content: typeof o.body === "string" ? o.body : Buffer.from(o.body).toString("base64"),
      content_type: o.contentType ?? null,
    }));
    await this.upsertRows("objects", rows, ["path"]);
  }

  async upsertRows(table: string, rows: Row[], key: string[], declared?: readonly DeclaredColumn[]): Promise<void> {
    if (!checkUpsert(table, rows, key)) return;
    const client = bigQueryClient(this.account, this.projectId);
    const dataset = client.dataset(this.datasetName);
    const staging = dataset.table(`${STAGING_PREFIX}${table}_${randomBytes(8).toString("hex")}`);
    try {
      // The declared columns (a stream's) of their declared types, a column null in the batch included; any other, by value.
      const fields = await this.ensureSchema(dataset, dataset.table(table), table, tableColumns(rows, declared));
      const batch = latestPerKey(rows, key);
      const jsonColumns = new Set(fields.filter((f) => f.type === "JSON").map((f) => f.name!.toLowerCase()));
      const loads = chunks(batch.map((row) => ndjsonLine(row, jsonColumns)));
      const stagingName = `${this.projectId}.${this.datasetName}.${staging.id}`;
      await this.attempt(() => client.query({ query: stagingStatement(stagingName, fields), useLegacySql: false }));
      let bad = 0;
      let errors: LoadErrors = [];
      for (const lines of loads) {
        const loaded = await this.attempt(() => this.load(staging, fields, lines));
        bad += loaded.bad;
        if (errors.length === 0) errors = loaded.errors;
      }
      if (bad > 0) throw refusal(errors, bad, batch.length);
      const columns = fields.map((f) => f.name!);
      const merge = mergeStatement(`${this.projectId}.${this.datasetName}.${table}`, stagingName, columns, key);
      await this.attempt(() => client.query({ query: merge, useLegacySql: false }));
    } catch (error) {
      // The table may differ from what this writer knows (changed elsewhere): read its schema again next time.
      this.schemas.delete(table);
      throw error;
    } finally {
      // Best effort: a staging table left behind expires by itself.
      await staging.delete().catch(() => {});
    }
  }

  /** Runs `step`, again after each of retryDelaysMs while BigQuery's refusal is a passing one. */
  private async attempt<T>(step: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step();
      } catch (error) {
        if (attempt >= this.retryDelaysMs.length || !transient(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, this.retryDelaysMs[attempt]));
      }
    }
  }

  /**
   * Appends NDJSON lines to the (empty, expiring) staging table. maxBadRecords lets BigQuery report every
   * refused row rather than stop at the first; answers them.
   */
  private async load(staging: Table, fields: TableField[], lines: string[]): Promise<{ bad: number; errors: LoadErrors }> {
    const body = lines.join("\n") + "\n";
    const metadata = {
      sourceFormat: "NEWLINE_DELIMITED_JSON",
      schema: { fields: fields.map((f) => ({ name: f.name, type: f.type, mode: "NULLABLE" })) },
      createDisposition: "CREATE_NEVER",
      writeDisposition: "WRITE_APPEND",
      maxBadRecords: lines.length,
      jobPrefix: "tributary_load_",
    } as JobLoadMetadata;
    const stream = staging.createWriteStream(metadata);
    const completed = new Promise<Job>((resolve, reject) => stream.on("error", reject).on("complete", resolve));
    // The SDK's upload has no timeout of its own: the upload is bounded here, the job's polls by the client's.
    const uploaded = new Promise<unknown>((resolve, reject) => stream.once("job", resolve).once("error", reject));
    completed.catch(() => {}); // awaited below, unless the upload fails first
    stream.end(body);
    await withDeadline(uploaded, providerTimeoutMs(), "BigQuery's load upload").catch((error: unknown) => {
      stream.destroy();
      throw error;
    });
    const job = await completed;
    const done = job.metadata as { status?: { errors?: LoadErrors }; statistics?: { load?: { badRecords?: string } } };
    return { bad: Number(done.statistics?.load?.badRecords ?? 0), errors: done.status?.errors ?? [] };
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

  /** Creates the table (or reads its schema) on first use, then adds the batch's columns it lacks; answers its fields. */
  private async ensureSchema(dataset: Dataset, target: Table, table: string, kinds: Map<string, ColumnKind>): Promise<TableField[]> {
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
    if (lacking(fields).length === 0) return fields;
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
      const now = [...current, ...adding];
      this.schemas.set(table, now);
      return now;
    }
  }

  async close(): Promise<void> {
    this.schemas.clear();
  }
}
