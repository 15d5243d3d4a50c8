import type { Hono } from "hono";
import { type ApiEnv } from "./context.js";
import { jsonBody } from "../lib/requests.js";
import type { ScheduleUseCases } from "../services/schedules.js";
import type { SchedulePreview } from "../../contract/schedules.js";

/**
 * PUT /{base}/:id/schedule sets the owner's record's schedule (a schedule, or `{ kind: "frequency" }` back to its
 * Daily/Hourly slot) and answers the record; POST /{base}/:id/schedule/preview answers the next run such a body
 * would give, saving nothing. Another user's record is a 404, a bad schedule a 400 with its sentence and field.
 */
export function addScheduleRoutes<T extends { id: string; frequency?: string }>(
  routes: Hono<ApiEnv>,
  base: "connectors" | "transforms",
  schedules: ScheduleUseCases<T>,
  present: (record: T) => object,
): void {
  routes.put(`/${base}/:id/schedule`, async (c) => {
    const record = await schedules.set(c.var.services, c.var.actor, c.req.param("id")!, await jsonBody(c));
    return c.json({ ...present(record), message: "Schedule saved" });
  });

  routes.post(`/${base}/:id/schedule/preview`, async (c) => {
    const next = await schedules.preview(c.var.services, c.var.actor, c.req.param("id")!, await jsonBody(c));
    return c.json({ next_run_at: next?.toISOString() ?? null } satisfies SchedulePreview);
  });
}
