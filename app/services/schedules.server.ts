import type { ScheduleBody } from "@contract/schedules";
import { SCHEDULE_MESSAGES as M } from "@contract/schedules";
import { callBackend } from "./backend.server";

/** What runs on a schedule: its backend calls live under /connectors/:id or /transforms/:id. */
export type ScheduledKind = "connectors" | "transforms";

/** PUT …/schedule: sets the record's schedule (or back to its frequency). */
export function saveSchedule(request: Request, kind: ScheduledKind, id: string, body: ScheduleBody) {
  return callBackend(request, `PUT /${kind}/:id/schedule`, { params: { id }, json: body }, M.saveFailed);
}

/** POST …/schedule/preview: the next run the schedule would give, nothing saved. */
export function previewSchedule(request: Request, kind: ScheduledKind, id: string, body: ScheduleBody) {
  return callBackend(request, `POST /${kind}/:id/schedule/preview`, { params: { id }, json: body }, M.previewFailed);
}
