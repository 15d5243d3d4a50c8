import type { ScheduleBody, SchedulePreview } from "@contract/schedules";
import { SCHEDULE_MESSAGES as M, schedulePreviewSchema } from "@contract/schedules";
import { callBackend, type Outcome } from "./backend.server";

/** What runs on a schedule: its backend calls live under /connectors/:id or /transforms/:id. */
export type ScheduledKind = "connectors" | "transforms";

const path = (kind: ScheduledKind, id: string, rest: string) => `/${kind}/${encodeURIComponent(id)}/schedule${rest}`;

/** PUT …/schedule: sets the record's schedule (or back to its frequency). */
export function saveSchedule(request: Request, kind: ScheduledKind, id: string, body: ScheduleBody): Promise<Outcome<unknown>> {
  return callBackend(request, path(kind, id, ""), { method: "PUT", json: body }, M.saveFailed);
}

/** POST …/schedule/preview: the next run the schedule would give, nothing saved. */
export function previewSchedule(request: Request, kind: ScheduledKind, id: string, body: ScheduleBody): Promise<Outcome<SchedulePreview>> {
  return callBackend(request, path(kind, id, "/preview"), { method: "POST", json: body, schema: schedulePreviewSchema }, M.previewFailed);
}
