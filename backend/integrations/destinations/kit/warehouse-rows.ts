import { isUuid } from "../../../db/values.js";
import type { Line, MeetingMeta } from "../warehouse.js";
import { PLATFORM_FILE_TYPES } from "../../../../contract/integrations/sources.js";

/** What the warehouse plug-ins share when they read synced rows for transforms: filters, row shapes, plain values. */

export function platformsFor(fileTypes: string[]): string[] {
  return Object.entries(PLATFORM_FILE_TYPES)
    .filter(([, types]) => types.some((t) => fileTypes.includes(t)))
    .map(([p]) => p);
}

/** A source id checked to be a UUID (it is put into SQL text by some warehouses). */
export const uuid = (id: string) => {
  if (!isUuid(id)) throw new Error("Invalid source id");
  return id;
};
const KNOWN_PLATFORMS = Object.keys(PLATFORM_FILE_TYPES);
/** Only known platform names (they are put into SQL text by some warehouses). */
export const platformList = (platforms: string[]) => platforms.filter((p) => KNOWN_PLATFORMS.includes(p));
export const num = (v: unknown) => (typeof v === "number" ? v : Number(v ?? 0));
const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const strOrNull = (v: unknown) => (v === null || v === undefined || v === "" ? null : String(v));

export function lineOf(r: Record<string, unknown>): Line {
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

export function meetingOf(r: Record<string, unknown>): MeetingMeta {
  return { meeting_id: str(r.meeting_id), title: str(r.title), started_at: new Date(num(r.started_ms)), account: strOrNull(r.account) };
}

/** A row with lower-case column names (warehouses that answer upper case). */
export const lower = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));

/** A result cell as plain JSON (the results call's rows hold scalars): timestamps as ISO text, JSON values as their text. */
function plainValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "object") return JSON.stringify(v);
  return v;
}
export const plainRow = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plainValue(v)]));

/** Rows of one key kept once (the last one read), for a warehouse where a re-synced row may be there twice. */
export function oncePer<T>(rows: T[], key: (row: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) byKey.set(key(row), row);
  return byKey.size === rows.length ? rows : rows.filter((row) => byKey.get(key(row)) === row);
}

/** Memoises readMeetings per source and platforms (readLines reads them again); a failed read is forgotten. */
export function meetingsOnce(read: (sourceId: string, platforms: string[]) => Promise<MeetingMeta[]>) {
  const cache = new Map<string, Promise<MeetingMeta[]>>();
  return (sourceId: string, platforms: string[]) => {
    const key = JSON.stringify([sourceId, platformList(platforms)]);
    let found = cache.get(key);
    if (!found) {
      found = read(sourceId, platforms);
      cache.set(key, found);
      found.catch(() => cache.delete(key));
    }
    return found;
  };
}
