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

/**
 * The alert settings page's answer: the workspace's webhook and thresholds (the signing secret shown to its members
 * alone) and the actor's own address for this workspace's alerts.
 */
export function presentAlertSettings(view: AlertSettingsView): AlertSettings {
  const { row, recipient } = view;
  const changed = [row?.updatedAt ?? row?.createdAt, recipient?.updatedAt ?? recipient?.createdAt].filter((d): d is Date => !!d);
  const updatedAt = changed.length ? new Date(Math.max(...changed.map((d) => d.getTime()))) : null;
  return {
    email: recipient?.email ?? "",
    webhook_url: row?.webhookUrl ?? "",
    warn_after: row?.warnAfter ?? DEFAULT_WARN_AFTER,
    pause_after: row?.pauseAfter ?? DEFAULT_PAUSE_AFTER,
    signing_secret: view.signingSecret,
    signature_header: SIGNATURE_HEADER,
    email_available: view.emailAvailable,
    email_confirmed: !!recipient?.email && !!recipient.emailConfirmedAt,
    updated_at: updatedAt ? iso(updatedAt) : null,
    deliveries: view.deliveries.map((d) => presentDelivery(d)),
  };
}
