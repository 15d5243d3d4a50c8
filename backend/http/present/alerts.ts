import type { AlertDeliveryRow } from "../../db/alerts.js";
import type { AlertDelivery } from "../../../contract/alerts.js";
import { iso } from "./values.js";

/** One alert delivery as the alert settings answer lists it. */
export function presentDelivery(r: AlertDeliveryRow): AlertDelivery {
  return {
    id: r.id,
    event: r.event,
    channel: r.channel as AlertDelivery["channel"],
    target: r.target,
    subject: r.subject,
    status: r.status as AlertDelivery["status"],
    attempts: r.attempts,
    last_error: r.lastError,
    created_at: iso(r.createdAt),
    finished_at: iso(r.finishedAt),
  };
}
