import {
  confirmEmailToken,
  findAlertSettings,
  findRecipient,
  listDeliveries,
  renewEmailToken,
  rollSigningSecret,
  saveAlertSettings,
  saveRecipient,
  type AlertDeliveryRow,
  type AlertRecipientRow,
  type AlertSettingsRow,
} from "../db/alerts.js";
import { emailTokenHash, newEmailToken, sendConfirmation } from "../alerts/confirm.js";
import { checkWebhookUrl, newSigningSecret, WebhookRefused } from "../alerts/webhook.js";
import { ALERT_MESSAGES as M, alertSettingsBodySchema, confirmEmailBodySchema } from "../../contract/alerts.js";
import type { Actor } from "./actor.js";
import type { Services } from "./deps.js";
import { conflict, invalid, parse, ServiceError } from "./errors.js";
import { recordActivity } from "./activity.js";

/** The alert settings as the activity log names them: one record per workspace. */
const ALERT_SETTINGS = { type: "alert_settings" as const, id: null, name: null };

/**
 * The alert settings as the actor's page shows them: the workspace's row (webhook, thresholds, its signing secret
 * opened), the actor's own address for this workspace's alerts (issue 51 item 5: each member sets their own), the sends.
 */
export interface AlertSettingsView {
  row: AlertSettingsRow | null;
  recipient: AlertRecipientRow | null;
  signingSecret: string | null;
  emailAvailable: boolean;
  deliveries: AlertDeliveryRow[];
}

async function view(deps: Services, actor: Actor, row: AlertSettingsRow | null, recipient: AlertRecipientRow | null): Promise<AlertSettingsView> {
  return {
    row,
    recipient,
    signingSecret: row ? deps.secrets.open<string>(row.signingSecret) : null,
    emailAvailable: !!deps.config.SMTP_URL,
    deliveries: await listDeliveries(deps.db, actor.ownerId),
  };
}

const ownRecipient = (deps: Services, actor: Actor) => findRecipient(deps.db, actor.ownerId, actor.userId);

export async function getAlertSettings(deps: Services, actor: Actor): Promise<AlertSettingsView> {
  return view(deps, actor, await findAlertSettings(deps.db, actor.ownerId), await ownRecipient(deps, actor));
}

/**
 * Every field again, checked by the contract's schema; a webhook's host by the SSRF rule. The webhook and thresholds
 * are the workspace's; the address is the actor's own for this workspace. A new address is unconfirmed until its owner
 * opens the link mailed to it (finding F3); the same one stays as it was.
 */
export async function saveAlerts(deps: Services, actor: Actor, raw: unknown): Promise<AlertSettingsView & { confirmation?: "sent" | "limited" | "failed" }> {
  const body = parse(alertSettingsBodySchema, raw);
  if (body.webhook_url) {
    try {
      await checkWebhookUrl(body.webhook_url);
    } catch (error) {
      if (error instanceof WebhookRefused) throw invalid(error.message);
      throw error;
    }
  }
  const { db, secrets } = deps;
  const before = await findAlertSettings(db, actor.ownerId);
  const mine = await ownRecipient(deps, actor);
  const changed = body.email.toLowerCase() !== (mine?.email ?? "").toLowerCase();
  const token = changed && body.email ? newEmailToken() : null;
  const { row, recipient } = await db.transaction(async (tx) => {
    const saved = await saveAlertSettings(tx, actor.ownerId, { webhookUrl: body.webhook_url, warnAfter: body.warn_after, pauseAfter: body.pause_after }, secrets.seal(newSigningSecret()));
    const own = mine || body.email ? await saveRecipient(tx, actor.ownerId, actor.userId, body.email, changed ? (token?.hash ?? null) : undefined) : null;
    return { row: saved, recipient: own };
  });
  await recordActivity(deps, actor, before ? "updated" : "created", ALERT_SETTINGS);
  // Without SMTP_URL no e-mail is sent at all: the address waits, unconfirmed, for a server that can mail it.
  const confirmation = token && recipient && deps.config.SMTP_URL ? await sendConfirmation(deps, actor.userId, body.email, token.token) : undefined;
  return { ...(await view(deps, actor, row, recipient)), ...(confirmation ? { confirmation } : {}) };
}

/** A new confirmation link mailed to the actor's saved address that waits for one. */
export async function resendEmailConfirmation(deps: Services, actor: Actor): Promise<AlertSettingsView & { recipient: AlertRecipientRow; confirmation: "sent" }> {
  const { db, config } = deps;
  const waiting = await ownRecipient(deps, actor);
  if (!waiting?.email || waiting.emailConfirmedAt) throw conflict(M.nothingToConfirm);
  // The new link replaces the last one only once it is mailed: past the hour's limit, or when the SMTP server fails,
  // the link already in the user's inbox stays valid.
  const token = newEmailToken();
  const confirmation = await sendConfirmation(deps, actor.userId, waiting.email, token.token);
  if (confirmation === "limited") throw new ServiceError("rate_limited", M.confirmationLimited);
  if (confirmation === "failed") throw config.SMTP_URL ? new ServiceError("upstream", M.confirmationFailed) : conflict(M.emailUnavailable);
  const recipient = await renewEmailToken(db, actor.ownerId, actor.userId, waiting.email, token.hash);
  if (!recipient) throw conflict(M.nothingToConfirm);
  await recordActivity(deps, actor, "email_confirmation_resent", ALERT_SETTINGS);
  return { ...(await view(deps, actor, await findAlertSettings(db, actor.ownerId), recipient)), recipient, confirmation };
}

/** A new signing secret replaces the old one at once (finding F7); a conflict before the settings were ever saved. */
export async function rollWebhookSecret(deps: Services, actor: Actor): Promise<AlertSettingsView> {
  const row = await rollSigningSecret(deps.db, actor.ownerId, deps.secrets.seal(newSigningSecret()));
  if (!row) throw conflict(M.noSecretYet);
  deps.log.info({ userId: actor.userId }, "webhook signing secret rolled");
  await recordActivity(deps, actor, "signing_secret_rolled", ALERT_SETTINGS);
  return view(deps, actor, row, await ownRecipient(deps, actor));
}

/** The confirmation link's token: whoever reads the address confirms it, signed in or not. The address confirmed. */
export async function confirmAlertEmail(deps: Services, raw: unknown): Promise<string> {
  const body = parse(confirmEmailBodySchema, raw);
  const email = await confirmEmailToken(deps.db, emailTokenHash(body.token));
  if (!email) throw invalid(M.confirmLinkInvalid);
  return email;
}
