import type { Context, Hono } from "hono";
import { jsonBody, ApiError, type ApiEnv } from "./context.js";
import type { Database } from "../db/client.js";
import { nextRun } from "../runs/schedule.js";
import { scheduleBodySchema, scheduleOf, type Schedule, type SchedulePreview } from "../../contract/schedules.js";

/** What the schedule calls need of a connector or a transform: its owner's record, its schedule's setter, its API shape. */
export interface ScheduleTarget<T extends { id: string; frequency?: string }> {
  notFound: string;
  find(db: Database, ownerId: string, id: string): Promise<T | null>;
  set(db: Database, ownerId: string, id: string, schedule: Schedule | null): Promise<boolean>;
  present(record: T): object;
}

/** The body as a schedule (null: back to the frequency), or a 400 naming the field at fault with its sentence. */
async function readSchedule(c: Context<ApiEnv>): Promise<{ schedule: Schedule | null } | Response> {
  const parsed = scheduleBodySchema.safeParse(await jsonBody(c));
  if (parsed.success) return { schedule: scheduleOf(parsed.data) };
  const issue = parsed.error.issues[0]!;
  return c.json({ message: issue.message, field: issue.path.join(".") || "kind" }, 400);
}

/**
 * PUT /{base}/:id/schedule sets the owner's record's schedule (a schedule, or `{ kind: "frequency" }` back to its
 * Daily/Hourly slot) and answers the record; POST /{base}/:id/schedule/preview answers the next run such a body
 * would give, saving nothing. Another user's record is a 404, a bad schedule a 400 with its sentence and field.
 */
export function addScheduleRoutes<T extends { id: string; frequency?: string }>(routes: Hono<ApiEnv>, base: "connectors" | "transforms", target: ScheduleTarget<T>): void {
  const owned = async (c: Context<ApiEnv>) => {
    const record = await target.find(c.var.services.db, c.var.user.id, c.req.param("id")!);
    if (!record) throw new ApiError(404, target.notFound);
    return record;
  };

  routes.put(`/${base}/:id/schedule`, async (c) => {
    const record = await owned(c);
    const body = await readSchedule(c);
    if (body instanceof Response) return body;
    if (!(await target.set(c.var.services.db, c.var.user.id, record.id, body.schedule))) throw new ApiError(404, target.notFound);
    return c.json({ ...target.present(await owned(c)), message: "Schedule saved" });
  });

  routes.post(`/${base}/:id/schedule/preview`, async (c) => {
    const record = await owned(c);
    const body = await readSchedule(c);
    if (body instanceof Response) return body;
    const next = nextRun(record.id, record.frequency ?? "daily", body.schedule, new Date());
    return c.json({ next_run_at: next?.toISOString() ?? null } satisfies SchedulePreview);
  });
}
