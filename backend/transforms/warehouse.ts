import { and, asc, eq } from "drizzle-orm";
import type snowflake from "snowflake-sdk";
import type { Database } from "../db/client.js";
import { connectorDestinations, destinations } from "../db/schema.js";
import { findCredential, toDestination } from "../db/destinations.js";
import type { SecretBox } from "../lib/crypto.js";
import type { Destination } from "../../contract/destinations.js";
import { SNOWFLAKE_IDENTIFIER_PATTERN } from "../../contract/destinations.js";
import { writerFor, type DestinationWriter } from "../integrations/destinations/index.js";
import { LocalWriter, resolveLocalRoot } from "../integrations/destinations/local.js";
import { bigQueryClient, platformServiceAccount } from "../integrations/destinations/google.js";
import { closeSnowflake, connectSnowflake, runSql } from "../integrations/destinations/snowflake.js";
import { checkName } from "../integrations/destinations/writer.js";
import { isUuid } from "../db/values.js";
import type { WarehouseTarget } from "./catalogue.js";

/**
 * Reading what a connector synced, from its destination's warehouse, and
 * writing result tables back there. The local destination's DuckDB file is
 * read through LocalWriter.query; BigQuery with @google-cloud/bigquery's
 * query(); Snowflake with snowflake-sdk — the same tables the sync engine
 * writes (`meetings`, `transcript_utterances`, filtered by source_id).
 */

/** What the warehouse readers answer: the analysis library's own shapes. */
export type { Line, MeetingMeta } from "./analysis/index.js";
import type { Line, MeetingMeta } from "./analysis/index.js";

/** The integrations whose rows are queryable tables; the wizard prefers the cloud ones (§6). */
export const CLOUD_WAREHOUSES = ["bigquery", "snowflake", "snowflake_stage"];
export const WAREHOUSE_INTEGRATIONS = [...CLOUD_WAREHOUSES, "local"];

/** The files a platform's sync writes per meeting (backend/jobs/sync-connector.job.ts): a transform's file types pick platforms. */
export const PLATFORM_FILE_TYPES: Record<string, string[]> = {
  zoom: [".vtt", ".txt"],
  teams: [".vtt", ".txt"],
  gong: [".json", ".txt"],
  gmail: [".json", ".txt"],
};

export function platformsFor(fileTypes: string[]): string[] {
  return Object.entries(PLATFORM_FILE_TYPES)
    .filter(([, types]) => types.some((t) => fileTypes.includes(t)))
    .map(([p]) => p);
}

/** The connector's destination a transform uses: its first BigQuery or Snowflake destination, else its local one; null when none. */
export async function warehouseDestination(db: Database, connectorId: string): Promise<Destination | null> {
  const rows = await db
    .select({ d: destinations })
    .from(connectorDestinations)
    .innerJoin(destinations, eq(destinations.id, connectorDestinations.destinationId))
    .where(eq(connectorDestinations.connectorId, connectorId))
    .orderBy(asc(destinations.createdAt), asc(destinations.id));
  const all = rows.map((r) => toDestination(r.d, 0));
  return all.find((d) => CLOUD_WAREHOUSES.includes(d.integration_name)) ?? all.find((d) => d.integration_name === "local") ?? null;
}

/** The same, checked to be the owner's connector's (for the HTTP calls). */
export async function ownedWarehouseDestination(db: Database, ownerId: string, connectorId: string): Promise<Destination | null> {
  const d = await warehouseDestination(db, connectorId);
  if (!d) return null;
  const [own] = await db.select({ id: destinations.id }).from(destinations).where(and(eq(destinations.id, d.id), eq(destinations.ownerId, ownerId)));
  return own ? d : null;
}

export function toWarehouseTarget(d: Destination): WarehouseTarget {
  let serviceAccount: string | null = typeof d.config.service_account_email === "string" ? d.config.service_account_email : null;
  if (!serviceAccount && d.integration_name === "bigquery") {
    try {
      serviceAccount = platformServiceAccount().client_email;
    } catch {
      serviceAccount = null;
    }
  }
  // Only non-secret configuration (no credential ids beyond what the destination screens show).
  return { id: d.id, name: d.name, integration_name: d.integration_name, category: d.category, config: d.config, service_account_email: serviceAccount };
}

export interface WarehouseServices {
  db: Database;
  secrets: SecretBox;
  config: { DATA_DIR: string };
}

export interface ResultPage {
  columns: string[];
  rows: Record<string, unknown>[];
  total: number;
}

export interface Warehouse {
  countMeetings(sourceId: string, platforms: string[]): Promise<number>;
  readMeetings(sourceId: string, platforms: string[]): Promise<MeetingMeta[]>;
  readLines(sourceId: string, platforms: string[]): Promise<Line[]>;
  /** Rows of one run in a result table (null when the table does not exist). */
  readTable(table: string, limit: number, runId: string, location?: ResultsLocation): Promise<ResultPage | null>;
  /** The writer for result tables (in the results dataset/schema when one is named); `done` releases it. */
  resultsWriter(location?: ResultsLocation): Promise<{ writer: DestinationWriter; done(): Promise<void> }>;
  /** Removes a result table's rows of other runs (where the warehouse allows it; readers filter by run_id anyway). */
  prune(table: string, runId: string, location?: ResultsLocation): Promise<void>;
  close(): Promise<void>;
}

/** Where result tables go: BigQuery `dataset`, Snowflake `schema` (the destination's own when absent). */
export interface ResultsLocation {
  dataset?: string;
  schema?: string;
}

const uuid = (id: string) => {
  if (!isUuid(id)) throw new Error("Invalid source id");
  return id;
};
const KNOWN_PLATFORMS = Object.keys(PLATFORM_FILE_TYPES);
const platformList = (platforms: string[]) => platforms.filter((p) => KNOWN_PLATFORMS.includes(p));
const num = (v: unknown) => (typeof v === "number" ? v : Number(v ?? 0));
const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const strOrNull = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));

function lineOf(r: Record<string, unknown>): Line {
  return {
    meeting_id: str(r.meeting_id),
    utterance_id: str(r.utterance_id),
    speaker_id: str(r.speaker_id),
    speaker_name: str(r.speaker_name),
    affiliation: strOrNull(r.affiliation),
    spoken_at: new Date(num(r.spoken_ms)),
    start_ms: num(r.start_ms),
    end_ms: num(r.end_ms),
    text: str(r.text),
  };
}
function meetingOf(r: Record<string, unknown>): MeetingMeta {
  return { meeting_id: str(r.meeting_id), title: str(r.title), started_at: new Date(num(r.started_ms)), account: strOrNull(r.account) };
}
const lower = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));

/** A result cell as plain JSON (the results call's rows hold scalars): timestamps as ISO text, JSON values as their text. */
function plainValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "object") return JSON.stringify(v);
  return v;
}
const plainRow = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plainValue(v)]));

/** Rows of one key kept once (the last one read): BigQuery's streaming de-duplication is best effort, so a re-synced row can be there twice. */
function oncePer<T>(rows: T[], key: (row: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) byKey.set(key(row), row);
  return byKey.size === rows.length ? rows : rows.filter((row) => byKey.get(key(row)) === row);
}

/* ---- local: DuckDB --------------------------------------------------------------------------------- */

class LocalWarehouse implements Warehouse {
  constructor(private readonly writer: LocalWriter) {}

  private async has(table: string) {
    const rows = await this.writer.query(`SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = '${checkName("table", table)}'`);
    return num(rows[0]?.n) > 0;
  }
  private where(sourceId: string, platforms: string[], alias = "") {
    const list = platformList(platforms);
    return `${alias}source_id = '${uuid(sourceId)}' AND ${list.length ? `${alias}platform IN (${list.map((p) => `'${p}'`).join(", ")})` : "FALSE"}`;
  }
  async countMeetings(sourceId: string, platforms: string[]) {
    if (!(await this.has("meetings"))) return 0;
    const rows = await this.writer.query(`SELECT count(*)::INTEGER AS n FROM meetings WHERE ${this.where(sourceId, platforms)}`);
    return num(rows[0]?.n);
  }
  async readMeetings(sourceId: string, platforms: string[]) {
    if (!(await this.has("meetings"))) return [];
    const rows = await this.writer.query(
      `SELECT meeting_id, title, account, CAST(epoch_ms(started_at) AS DOUBLE) AS started_ms FROM meetings WHERE ${this.where(sourceId, platforms)} ORDER BY started_at, meeting_id`,
    );
    return rows.map(meetingOf);
  }
  async readLines(sourceId: string, platforms: string[]) {
    if (!(await this.has("meetings")) || !(await this.has("transcript_utterances"))) return [];
    const rows = await this.writer.query(
      `SELECT u.meeting_id, u.utterance_id, u.speaker_id, u.speaker_name, u.affiliation, CAST(epoch_ms(u.spoken_at) AS DOUBLE) AS spoken_ms, u.start_ms, u.end_ms, u.text
       FROM transcript_utterances u JOIN meetings m ON m.meeting_id = u.meeting_id
       WHERE ${this.where(sourceId, platforms, "m.")} AND u.source_id = '${uuid(sourceId)}'
       ORDER BY u.meeting_id, u.start_ms, u.utterance_id`,
    );
    return rows.map(lineOf);
  }
  async readTable(table: string, limit: number, runId: string) {
    if (!(await this.has(table))) return null;
    const name = `"${checkName("table", table)}"`;
    const where = `WHERE run_id = '${uuid(runId)}'`;
    const [count] = await this.writer.query(`SELECT count(*)::INTEGER AS n FROM ${name} ${where}`);
    const columns = await this.writer.query(`SELECT column_name FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`);
    const rows = await this.writer.query(`SELECT * FROM ${name} ${where} LIMIT ${Math.max(0, Math.floor(limit))}`);
    return { columns: columns.map((c) => String(c.column_name)), rows, total: num(count?.n) };
  }
  async resultsWriter() {
    return { writer: this.writer as DestinationWriter, done: async () => {} };
  }
  async prune(table: string, runId: string) {
    if (await this.has(table)) await this.writer.query(`DELETE FROM "${checkName("table", table)}" WHERE run_id IS DISTINCT FROM '${uuid(runId)}'`);
  }
  async close() {
    await this.writer.close();
  }
}

/* ---- BigQuery ------------------------------------------------------------------------------------- */

class BigQueryWarehouse implements Warehouse {
  constructor(
    private readonly destination: Destination,
    private readonly services: WarehouseServices,
    private readonly ownerId: string,
  ) {}
  private get project() {
    return String(this.destination.config.project_id ?? "");
  }
  private get dataset() {
    return String(this.destination.config.dataset_name ?? "");
  }
  private client() {
    return bigQueryClient(platformServiceAccount(), this.project);
  }
  private table(name: string, dataset = this.dataset) {
    return `\`${this.project}.${checkName("table", dataset)}.${checkName("table", name)}\``;
  }
  private async exists(name: string, dataset = this.dataset) {
    const [exists] = await this.client().dataset(dataset).table(name).exists();
    return exists;
  }
  private async run(query: string, params: Record<string, unknown>) {
    // Array parameters carry their type: BigQuery cannot infer the type of an empty one.
    const types = Object.fromEntries(Object.entries(params).filter(([, v]) => Array.isArray(v)).map(([k]) => [k, ["STRING"]]));
    const [rows] = await this.client().query({ query, params, types, useLegacySql: false });
    return (rows as Record<string, unknown>[]).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v && typeof v === "object" && "value" in v ? (v as { value: unknown }).value : v])));
  }
  private meetingIds = new Map<string, Promise<MeetingMeta[]>>();
  private where() {
    return "source_id = @source AND platform IN UNNEST(@platforms)";
  }
  async countMeetings(sourceId: string, platforms: string[]) {
    if (!(await this.exists("meetings"))) return 0;
    const rows = await this.run(`SELECT COUNT(DISTINCT meeting_id) AS n FROM ${this.table("meetings")} WHERE ${this.where()}`, { source: uuid(sourceId), platforms: platformList(platforms) });
    return num(rows[0]?.n);
  }
  readMeetings(sourceId: string, platforms: string[]) {
    const key = JSON.stringify([sourceId, platformList(platforms)]);
    let read = this.meetingIds.get(key);
    if (!read) {
      read = (async () => {
        if (!(await this.exists("meetings"))) return [];
        const rows = await this.run(
          `SELECT meeting_id, title, account, UNIX_MILLIS(started_at) AS started_ms FROM ${this.table("meetings")} WHERE ${this.where()} ORDER BY started_at, meeting_id`,
          { source: uuid(sourceId), platforms: platformList(platforms) },
        );
        return oncePer(rows.map(meetingOf), (m) => m.meeting_id);
      })();
      this.meetingIds.set(key, read);
      read.catch(() => this.meetingIds.delete(key));
    }
    return read;
  }
  /** The lines of the source's utterances whose meeting is one of the platforms' (the meetings' filter applied here, not by a join). */
  async readLines(sourceId: string, platforms: string[]) {
    const meetings = new Set((await this.readMeetings(sourceId, platforms)).map((m) => m.meeting_id));
    if (meetings.size === 0 || !(await this.exists("transcript_utterances"))) return [];
    const rows = await this.run(
      `SELECT meeting_id, utterance_id, speaker_id, speaker_name, affiliation, UNIX_MILLIS(spoken_at) AS spoken_ms, start_ms, end_ms, text
       FROM ${this.table("transcript_utterances")}
       WHERE source_id = @source
       ORDER BY meeting_id, start_ms, utterance_id`,
      { source: uuid(sourceId) },
    );
    return oncePer(rows.map(lineOf), (l) => l.utterance_id).filter((l) => meetings.has(l.meeting_id));
  }
  async readTable(table: string, limit: number, runId: string, location?: ResultsLocation) {
    const dataset = location?.dataset || this.dataset;
    if (!(await this.exists(table, dataset))) return null;
    const [metadata] = await this.client().dataset(dataset).table(table).getMetadata();
    const columns = ((metadata as { schema?: { fields?: { name: string }[] } }).schema?.fields ?? []).map((f) => f.name);
    const params = { run: uuid(runId) };
    const [count] = await this.run(`SELECT COUNT(*) AS n FROM ${this.table(table, dataset)} WHERE run_id = @run`, params);
    const rows = await this.run(`SELECT * FROM ${this.table(table, dataset)} WHERE run_id = @run LIMIT ${Math.max(0, Math.floor(limit))}`, params);
    return { columns, rows: rows.map(plainRow), total: num(count?.n) };
  }
  async resultsWriter(location?: ResultsLocation) {
    const config = { ...this.destination.config, ...(location?.dataset ? { dataset_name: location.dataset } : {}) };
    const writer = await writerFor({ ...this.destination, config }, this.ownerId, this.services);
    return { writer, done: () => writer.close() };
  }
  /** Streamed rows cannot be deleted while in BigQuery's streaming buffer: older runs' rows stay, told apart by run_id. */
  async prune() {}
  async close() {}
}

/* ---- Snowflake ------------------------------------------------------------------------------------- */

class SnowflakeWarehouse implements Warehouse {
  private connection?: snowflake.Connection;
  constructor(
    private readonly destination: Destination,
    private readonly services: WarehouseServices,
    private readonly ownerId: string,
  ) {}
  private ident(value: unknown, what: string) {
    const text = String(value ?? "");
    if (!SNOWFLAKE_IDENTIFIER_PATTERN.test(text)) throw new Error(`The destination's ${what} is not a valid Snowflake identifier`);
    return text.toUpperCase();
  }
  private table(name: string, schema?: string) {
    return `${this.ident(this.destination.config.database, "database")}.${this.ident(schema || this.destination.config.schema, "schema")}.${checkName("table", name).toUpperCase()}`;
  }
  private async db() {
    if (!this.connection) {
      const c = this.destination.config as Record<string, string | undefined>;
      const credential = await findCredential(this.services.db, this.ownerId, this.destination.credential_id ?? undefined);
      if (!credential?.secret) throw new Error(`The Snowflake destination "${this.destination.name}" has no stored credential`);
      const { password } = this.services.secrets.open<{ password: string }>(credential.secret);
      this.connection = await connectSnowflake({ account: c.account!, user: c.user!, password, warehouse: c.warehouse, database: c.database!, schema: c.schema! });
    }
    return this.connection;
  }
  private async run(sql: string, binds: snowflake.Binds = []) {
    return (await runSql(await this.db(), sql, binds)).map(lower);
  }
  private async exists(name: string, schema?: string) {
    const rows = await this.run(`SELECT COUNT(*) AS N FROM ${this.ident(this.destination.config.database, "database")}.INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?`, [
      this.ident(schema || this.destination.config.schema, "schema"),
      name.toUpperCase(),
    ]);
    return num(rows[0]?.n) > 0;
  }
  private platformsClause(platforms: string[]) {
    const list = platformList(platforms);
    return { sql: list.length ? `PLATFORM IN (${list.map(() => "?").join(", ")})` : "FALSE", binds: list };
  }
  async countMeetings(sourceId: string, platforms: string[]) {
    if (!(await this.exists("meetings"))) return 0;
    const p = this.platformsClause(platforms);
    const rows = await this.run(`SELECT COUNT(*) AS N FROM ${this.table("meetings")} WHERE SOURCE_ID = ? AND ${p.sql}`, [uuid(sourceId), ...p.binds]);
    return num(rows[0]?.n);
  }
  private meetingIds = new Map<string, Promise<MeetingMeta[]>>();
  readMeetings(sourceId: string, platforms: string[]) {
    const key = JSON.stringify([sourceId, platformList(platforms)]);
    let read = this.meetingIds.get(key);
    if (!read) {
      read = (async () => {
        if (!(await this.exists("meetings"))) return [];
        const p = this.platformsClause(platforms);
        const rows = await this.run(
          `SELECT MEETING_ID, TITLE, ACCOUNT, DATE_PART(EPOCH_MILLISECOND, STARTED_AT) AS STARTED_MS FROM ${this.table("meetings")} WHERE SOURCE_ID = ? AND ${p.sql} ORDER BY STARTED_AT, MEETING_ID`,
          [uuid(sourceId), ...p.binds],
        );
        return oncePer(rows.map(meetingOf), (m) => m.meeting_id);
      })();
      this.meetingIds.set(key, read);
      read.catch(() => this.meetingIds.delete(key));
    }
    return read;
  }
  /** The lines of the source's utterances whose meeting is one of the platforms' (the meetings' filter applied here, not by a join). */
  async readLines(sourceId: string, platforms: string[]) {
    const meetings = new Set((await this.readMeetings(sourceId, platforms)).map((m) => m.meeting_id));
    if (meetings.size === 0 || !(await this.exists("transcript_utterances"))) return [];
    const rows = await this.run(
      `SELECT MEETING_ID, UTTERANCE_ID, SPEAKER_ID, SPEAKER_NAME, AFFILIATION, DATE_PART(EPOCH_MILLISECOND, SPOKEN_AT) AS SPOKEN_MS, START_MS, END_MS, TEXT
       FROM ${this.table("transcript_utterances")}
       WHERE SOURCE_ID = ?
       ORDER BY MEETING_ID, START_MS, UTTERANCE_ID`,
      [uuid(sourceId)],
    );
    return oncePer(rows.map(lineOf), (l) => l.utterance_id).filter((l) => meetings.has(l.meeting_id));
  }
  async readTable(table: string, limit: number, runId: string, location?: ResultsLocation) {
    if (!(await this.exists(table, location?.schema))) return null;
    const columns = await this.run(
      `SELECT COLUMN_NAME FROM ${this.ident(this.destination.config.database, "database")}.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
      [this.ident(location?.schema || this.destination.config.schema, "schema"), table.toUpperCase()],
    );
    const [count] = await this.run(`SELECT COUNT(*) AS N FROM ${this.table(table, location?.schema)} WHERE RUN_ID = ?`, [uuid(runId)]);
    const rows = await this.run(`SELECT * FROM ${this.table(table, location?.schema)} WHERE RUN_ID = ? LIMIT ${Math.max(0, Math.floor(limit))}`, [uuid(runId)]);
    return { columns: columns.map((c) => String(c.column_name).toLowerCase()), rows: rows.map(plainRow), total: num(count?.n) };
  }
  async resultsWriter(location?: ResultsLocation) {
    const config = { ...this.destination.config, ...(location?.schema ? { schema: location.schema } : {}) };
    const writer = await writerFor({ ...this.destination, config }, this.ownerId, this.services);
    return { writer, done: () => writer.close() };
  }
  async prune(table: string, runId: string, location?: ResultsLocation) {
    if (await this.exists(table, location?.schema)) await this.run(`DELETE FROM ${this.table(table, location?.schema)} WHERE RUN_ID <> ?`, [uuid(runId)]);
  }
  async close() {
    if (this.connection) await closeSnowflake(this.connection);
    this.connection = undefined;
  }
}

/** Opens the warehouse of a destination (local, BigQuery, Snowflake). */
export function openWarehouse(destination: Destination, ownerId: string, services: WarehouseServices): Warehouse {
  switch (destination.integration_name) {
    case "local":
      return new LocalWarehouse(new LocalWriter(resolveLocalRoot(services.config.DATA_DIR, String(destination.config.folder ?? ""))));
    case "bigquery":
      return new BigQueryWarehouse(destination, services, ownerId);
    case "snowflake":
    case "snowflake_stage":
      return new SnowflakeWarehouse(destination, services, ownerId);
    default:
      throw new Error(`The destination "${destination.name}" has no warehouse to read`);
  }
}
