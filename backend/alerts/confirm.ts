import type { Database } from "../db/client.js";
import { randomToken, sha256 } from "../lib/crypto.js";
import type { Logger } from "../lib/log.js";
import { defaultFrom, sendEmail } from "./email.js";
import { mayConfirm } from "./limits.js";

/**
 * Finding F3: an alert address is confirmed by whoever reads it. Saving a new address (or asking again) mails it a
 * link to APP_URL/settings/alerts/confirm?token=…; only the token's hash is stored, and opening the link's page and
 * pressing Confirm marks the address confirmed. A few links an hour per user and per address at most.
 */

export interface ConfirmServices {
  db: Database;
  log: Logger;
  config: { APP_URL: string; SMTP_URL?: string; SMTP_FROM?: string };
}

/** A new token and the hash that is stored of it. */
export function newEmailToken(): { token: string; hash: string } {
  const token = randomToken();
  return { token, hash: sha256(token) };
}

export const emailTokenHash = (token: string) => sha256(token);

/** Mails the confirmation link, within the hour's limit: sent, limited (nothing sent), or failed (the SMTP server's fault). */
export async function sendConfirmation(services: ConfirmServices, userId: string, email: string, token: string, retryMs?: number): Promise<"sent" | "limited" | "failed"> {
  const { db, log, config } = services;
  if (!config.SMTP_URL) return "failed";
  if (!(await mayConfirm(db, userId, email))) return "limited";
  const link = new URL(`/settings/alerts/confirm?token=${encodeURIComponent(token)}`, config.APP_URL).href;
  const text = [
    "Someone asked Tributary to send alerts about failing connectors and transforms to this address.",
    "",
    `To receive them, open this link and press Confirm: ${link}`,
    "",
    "If it was not you, ignore this e-mail: no alert is sent to an address that was not confirmed.",
    "",
  ].join("\n");
  try {
    await sendEmail({ smtpUrl: config.SMTP_URL, from: config.SMTP_FROM || defaultFrom(config.APP_URL) }, { to: email, subject: "Confirm your address for Tributary alerts", text }, async () => {}, retryMs);
    return "sent";
  } catch (error) {
    log.warn({ userId, err: (error as Error).message }, "alert address confirmation not sent");
    return "failed";
  }
}
