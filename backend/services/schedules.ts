import type { Database } from "../db/client.js";
import { nextRun } from "../runs/schedule.js";
import { scheduleBodySchema, scheduleOf, type Schedule } from "../../contract/schedules.js";
import type { Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { invalid, notFound } from "./errors.js";
import { recordActivity } from "./activity.js";

/** What the schedule use cases need of a connector or a transform: its lookup, its schedule's setter, its not-found sentence. */
export interface ScheduleTarget<T extends { id: string; frequency?: string }> {
  find(db: Database, ownerId: string, id: string): Promise<T | null>;
  set(db: Database, ownerId: string, id: string, schedule: Schedule | null): Promise<boolean>;
  notFound: string;
  /** What the activity log calls such a record. */
  recordType: "connector" | "transform";
}

/** The body as a schedule (null: back to the frequency), or refused with its sentence, naming the field at fault. */
function parseSchedule(raw: unknown): Schedule | null {
  const parsed = scheduleBodySchema.safeParse(raw);
  if (parsed.success) return scheduleOf(parsed.data);
  const issue = parsed.error.issues[0]!;
  throw invalid(issue.message, issue.path.join(".") || "kind");
}

/**
 * A record's schedule: read, set (a schedule, or `{ kind: "frequency" }` back to its Daily/Hourly slot) or previewed (the
 * next run such a body would give, nothing saved). Another owner's record is not found.
 */
export function scheduleUseCases<T extends { id: string; frequency?: string }>(target: ScheduleTarget<T>) {
  const get = async (deps: Services, actor: Actor, id: string): Promise<T> => {
    const record = await target.find(deps.db, actor.ownerId, id);
    if (!record) throw notFound(target.notFound);
    return record;
  };
  return {
    get,
    async set(deps: Services, actor: Actor, id: string, raw: unknown): Promise<T> {
      const record = await get(deps, actor, id);
      if (!(await target.set(deps.db, actor.ownerId, record.id, parseSchedule(raw)))) throw notFound(target.notFound);
      const name = (record as { name?: unknown }).name;
      await recordActivity(deps, actor, "schedule_changed", { type: target.recordType, id: record.id, name: typeof name === "string" ? name : null });
      return get(deps, actor, record.id);
    },
    async preview(deps: Services, actor: Actor, id: string, raw: unknown): Promise<Date | null> {
      const record = await get(deps, actor, id);
      return nextRun(record.id, record.frequency ?? "daily", parseSchedule(raw), new Date());
    },
  };
}

export type ScheduleUseCases<T extends { id: string; frequency?: string }> = ReturnType<typeof scheduleUseCases<T>>;
