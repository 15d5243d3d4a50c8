import { z } from "zod";
import { ALERT_MESSAGES as M, alertSettingsSchema, type AlertSettings, type AlertSettingsBody } from "@contract/alerts";
import { callBackend, type Outcome } from "./backend.server";

/** The alert settings calls (issue 27 item 6): the signed-in user's own settings, read and saved. */

export function loadAlertSettings(request: Request): Promise<Outcome<AlertSettings>> {
  return callBackend(request, "/alerts/settings", { schema: alertSettingsSchema }, M.fetchFailed);
}

export function saveAlertSettings(request: Request, body: AlertSettingsBody): Promise<Outcome<AlertSettings>> {
  return callBackend(request, "/alerts/settings", { method: "PUT", json: body, schema: alertSettingsSchema.passthrough() }, M.saveFailed);
}

export function rollSigningSecret(request: Request): Promise<Outcome<AlertSettings>> {
  return callBackend(request, "/alerts/signing-secret/roll", { method: "POST", json: {}, schema: alertSettingsSchema.passthrough() }, M.rollFailed);
}

/** Mails a new confirmation link to the saved address that waits for one. */
export function resendConfirmation(request: Request): Promise<Outcome<AlertSettings>> {
  return callBackend(request, "/alerts/email/confirmation", { method: "POST", json: {}, schema: alertSettingsSchema.passthrough() }, M.confirmationFailed);
}

/** The confirmation link's Confirm: the address it confirmed. */
export function confirmEmail(request: Request, token: string): Promise<Outcome<{ email: string }>> {
  return callBackend(request, "/email-confirmations", { method: "POST", json: { token }, schema: z.object({ email: z.string() }) }, M.confirmFailed);
}
