import type { Destination } from "../../../../contract/destinations.js";
import { checkName } from "../writer.js";
import type { ResultsLocation, Warehouse } from "../warehouse.js";
import { bigQueryClient, platformServiceAccount } from "../kit/google.js";
import { lineOf, meetingOf, meetingsOnce, num, oncePer, plainRow, platformList, uuid } from "../kit/warehouse-rows.js";
import { BigQueryWriter } from "./writer.js";

/** Transforms on BigQuery: the synced tables read with @google-cloud/bigquery's query(), results written by the writer. */
export class BigQueryWarehouse implements Warehouse {
  /** The platform's service account does the work: nothing of the user's call is needed. */
  constructor(private readonly destination: Destination) {}
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
  private where() {
    return "source_id = @source AND platform IN UNNEST(@platforms)";
  }
  async countMeetings(sourceId: string, platforms: string[]) {
    if (!(await this.exists("meetings"))) return 0;
    const rows = await this.run(`SELECT COUNT(DISTINCT meeting_id) AS n FROM ${this.table("meetings")} WHERE ${this.where()}`, { source: uuid(sourceId), platforms: platformList(platforms) });
    return num(rows[0]?.n);
  }
  readonly readMeetings = meetingsOnce(async (sourceId, platforms) => {
    if (!(await this.exists("meetings"))) return [];
    const rows = await this.run(
      `SELECT meeting_id, title, account, UNIX_MILLIS(started_at) AS started_ms FROM ${this.table("meetings")} WHERE ${this.where()} ORDER BY started_at, meeting_id`,
      { source: uuid(sourceId), platforms: platformList(platforms) },
    );
    return oncePer(rows.map(meetingOf), (m) => m.meeting_id);
  });
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
    const writer = new BigQueryWriter(platformServiceAccount(), this.project, location?.dataset || this.dataset);
    return { writer, done: () => writer.close() };
  }
  /** Older runs' rows stay, told apart by run_id (the readers filter by it). */
  async prune() {}
  async close() {}
}
