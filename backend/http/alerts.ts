import { Hono } from "hono";
import { ApiError, jsonBody, parse, requireSession, type ApiEnv } from "./context.js";
import { confirmEmailToken, findAlertSettings, listDeliveries, renewEmailToken, rollSigningSecret, saveAlertSettings, type AlertSettingsRow } from "../db/alerts.js";
import { emailTokenHash, newEmailToken, sendConfirmation } from "../alerts/confirm.js";
import { checkWebhookUrl, newSigningSecret, WebhookRefused } from "../alerts/webhook.js";
import { ALERT_MESSAGES as M, alertSettingsBodySchema, confirmEmailBodySchema, DEFAULT_PAUSE_AFTER, DEFAULT_WARN_AFTER, SIGNATURE_HEADER, type AlertSettings } from "../../contract/alerts.js";
import { iso } from "./present/values.js";
import { presentDelivery } from "./present/alerts.js";

/** The caller's alert settings (issue 27 item 6): theirs only, the signing secret included (shown to them alone). */
export const alertsRoutes = new Hono<ApiEnv>();
alertsRoutes.use("/alerts/*", requireSession);

async function answer(c: { var: ApiEnv["Variables"] }, row: AlertSettingsRow | null): Promise<AlertSettings> {
  const { db, secrets, config } = c.var.services;
  return {
    email: row?.email ?? "",
    webhook_url: row?.webhookUrl ?? "",
    warn_after: row?.warnAfter ?? DEFAULT_WARN_AFTER,
    pause_after: row?.pauseAfter ?? DEFAULT_PAUSE_AFTER,
    signing_secret: row ? secrets.open<string>(row.signingSecret) : null,
    signature_header: SIGNATURE_HEADER,
    email_available: !!config.SMTP_URL,
    email_confirmed: !!row?.email && !!row.emailConfirmedAt,
    updated_at: row ? iso(row.updatedAt ?? row.createdAt) : null,
    deliveries: (await listDeliveries(db, c.var.user.id)).map((d) => presentDelivery(d)),
  };
}

alertsRoutes.get("/alerts/settings", async (c) => {
  const row = await findAlertSettings(c.var.services.db, c.var.user.id);
  return c.json(await answer(c, row));
});

/** PUT /alerts/settings: every field again, checked by the contract's schema; a webhook's host by the SSRF rule. */
alertsRoutes.put("/alerts/settings", async (c) => {
  const body = parse(alertSettingsBodySchema, await jsonBody(c));
  if (body.webhook_url) {
    try {
      await checkWebhookUrl(body.webhook_url);
    } catch (error) {
      if (error instanceof WebhookRefused) throw new ApiError(400, error.message);
      throw error;
    }
  }
  const { db, secrets } = c.var.services;
  // A new address is unconfirmed until its owner opens the link mailed to it (finding F3); the same one stays as it was.
  const before = await findAlertSettings(db, c.var.user.id);
  const changed = body.email.toLowerCase() !== (before?.email ?? "").toLowerCase();
  const token = changed && body.email ? newEmailToken() : null;
  const row = await saveAlertSettings(
    db,
    c.var.user.id,
    { email: body.email, webhookUrl: body.webhook_url, warnAfter: body.warn_after, pauseAfter: body.pause_after, ...(changed ? { emailTokenHash: token?.hash ?? null } : {}) },
    secrets.seal(newSigningSecret()),
  );
  // Without SMTP_URL no e-mail is sent at all: the address waits, unconfirmed, for a server that can mail it.
  const confirmation = token && c.var.services.config.SMTP_URL ? await sendConfirmation(c.var.services, c.var.user.id, body.email, token.token) : undefined;
  return c.json({ ...(await answer(c, row)), ...(confirmation ? { confirmation } : {}), message: "Alert settings saved" });
});

/** POST /alerts/email/confirmation: mails a new confirmation link to the saved address that waits for one. */
alertsRoutes.post("/alerts/email/confirmation", async (c) => {
  const { db } = c.var.services;
  const waiting = await findAlertSettings(db, c.var.user.id);
  if (!waiting?.email || waiting.emailConfirmedAt) throw new ApiError(409, M.nothingToConfirm);
  // The new link replaces the last one only once it is mailed: past the hour's limit, or when the SMTP server fails,
  // the link already in the user's inbox stays valid.
  const token = newEmailToken();
  const confirmation = await sendConfirmation(c.var.services, c.var.user.id, waiting.email, token.token);
  if (confirmation === "limited") throw new ApiError(429, M.confirmationLimited);
  if (confirmation === "failed") throw new ApiError(c.var.services.config.SMTP_URL ? 502 : 409, c.var.services.config.SMTP_URL ? M.confirmationFailed : M.emailUnavailable);
  const row = await renewEmailToken(db, c.var.user.id, waiting.email, token.hash);
  if (!row) throw new ApiError(409, M.nothingToConfirm);
  return c.json({ ...(await answer(c, row)), confirmation, message: M.confirmationSent(row.email) });
});

/**
 * POST /alerts/signing-secret/roll: a new signing secret replaces the old one at once (finding F7): webhooks sent from
 * now on are signed with the new one only. 409 before the settings were ever saved (there is no secret to roll).
 */
alertsRoutes.post("/alerts/signing-secret/roll", async (c) => {
  const { db, secrets, log } = c.var.services;
  const row = await rollSigningSecret(db, c.var.user.id, secrets.seal(newSigningSecret()));
  if (!row) throw new ApiError(409, M.noSecretYet);
  log.info({ userId: c.var.user.id }, "webhook signing secret rolled");
  return c.json({ ...(await answer(c, row)), message: M.secretRolled });
});

/**
 * POST /email-confirmations {token}: the confirmation link's page, pressed Confirm. No session: whoever reads the
 * address confirms it, signed in or not. 400 for a token that is not the latest link's (or was used).
 */
export const emailConfirmationRoutes = new Hono<ApiEnv>();
emailConfirmationRoutes.post("/email-confirmations", async (c) => {
  const body = parse(confirmEmailBodySchema, await jsonBody(c));
  const email = await confirmEmailToken(c.var.services.db, emailTokenHash(body.token));
  if (!email) throw new ApiError(400, M.confirmLinkInvalid);
  return c.json({ email, message: M.confirmed(email) });
});
