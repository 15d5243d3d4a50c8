import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import { jsonBody } from "../lib/requests.js";
import { ALERT_MESSAGES as M } from "../../contract/alerts.js";
import { confirmAlertEmail, getAlertSettings, resendEmailConfirmation, rollWebhookSecret, saveAlerts } from "../services/alerts.js";
import { presentAlertSettings } from "../present/alerts.js";

/** The caller's alert settings (issue 27 item 6): theirs only, the signing secret included (shown to them alone). */
export const alertsRoutes = new Hono<ApiEnv>();
alertsRoutes.use("/alerts/*", requireSession);

alertsRoutes.get("/alerts/settings", async (c) => c.json(presentAlertSettings(await getAlertSettings(c.var.services, c.var.actor))));

/** PUT /alerts/settings: every field again, checked by the contract's schema; a webhook's host by the SSRF rule. */
alertsRoutes.put("/alerts/settings", async (c) => {
  const saved = await saveAlerts(c.var.services, c.var.actor, await jsonBody(c));
  return c.json({ ...presentAlertSettings(saved), ...(saved.confirmation ? { confirmation: saved.confirmation } : {}), message: "Alert settings saved" });
});

/** POST /alerts/email/confirmation: mails a new confirmation link to the saved address that waits for one. */
alertsRoutes.post("/alerts/email/confirmation", async (c) => {
  const sent = await resendEmailConfirmation(c.var.services, c.var.actor);
  return c.json({ ...presentAlertSettings(sent), confirmation: sent.confirmation, message: M.confirmationSent(sent.recipient.email) });
});

/**
 * POST /alerts/signing-secret/roll: a new signing secret replaces the old one at once (finding F7): webhooks sent from
 * now on are signed with the new one only. 409 before the settings were ever saved (there is no secret to roll).
 */
alertsRoutes.post("/alerts/signing-secret/roll", async (c) => c.json({ ...presentAlertSettings(await rollWebhookSecret(c.var.services, c.var.actor)), message: M.secretRolled }));

/**
 * POST /email-confirmations {token}: the confirmation link's page, pressed Confirm. No session: whoever reads the
 * address confirms it, signed in or not. 400 for a token that is not the latest link's (or was used).
 */
export const emailConfirmationRoutes = new Hono<ApiEnv>();
emailConfirmationRoutes.post("/email-confirmations", async (c) => {
  const email = await confirmAlertEmail(c.var.services, await jsonBody(c));
  return c.json({ email, message: M.confirmed(email) });
});
