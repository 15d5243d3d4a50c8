import { ALERT_MESSAGES as M, type AlertSettingsBody } from "@contract/alerts";
import { callBackend } from "./backend.server";

/** The alert settings calls (issue 27 item 6): the workspace's, with the signed-in member's own address, read and saved. */

export function loadAlertSettings(request: Request) {
  return callBackend(request, "GET /alerts/settings", {}, M.fetchFailed);
}

export function saveAlertSettings(request: Request, body: AlertSettingsBody) {
  return callBackend(request, "PUT /alerts/settings", { json: body }, M.saveFailed);
}

export function rollSigningSecret(request: Request) {
  return callBackend(request, "POST /alerts/signing-secret/roll", { json: {} }, M.rollFailed);
}

/** Mails a new confirmation link to the saved address that waits for one. */
export function resendConfirmation(request: Request) {
  return callBackend(request, "POST /alerts/email/confirmation", { json: {} }, M.confirmationFailed);
}

/** The confirmation link's Confirm: the address it confirmed. */
export function confirmEmail(request: Request, token: string) {
  return callBackend(request, "POST /email-confirmations", { json: { token } }, M.confirmFailed);
}
