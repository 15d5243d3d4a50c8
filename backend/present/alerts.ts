import type { AlertDeliveryRow } from "../db/alerts.js";
import { DEFAULT_PAUSE_AFTER, DEFAULT_WARN_AFTER, SIGNATURE_HEADER, type AlertDelivery, type AlertSettings } from "../../contract/alerts.js";
import type { AlertSettingsView } from "../services/alerts.js";
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

/** The alert settings page's answer (the signing secret is the actor's own, shown to them alone). */
export function presentAlertSettings(view: AlertSettingsView): AlertSettings {
  const { row } = view;
  return {
    email: row?.email ?? "",
    webhook_url: row?.webhookUrl ?? "",
    warn_after: row?.warnAfter ?? DEFAULT_WARN_AFTER,
    pause_after: row?.pauseAfter ?? DEFAULT_PAUSE_AFTER,
    signing_secret: view.signingSecret,
    signature_header: SIGNATURE_HEADER,
    email_available: view.emailAvailable,
    email_confirmed: !!row?.email && !!row.emailConfirmedAt,
    updated_at: row ? iso(row.updatedAt ?? row.createdAt) : null,
    deliveries: view.deliveries.map((d) => presentDelivery(d)),
  };
}
