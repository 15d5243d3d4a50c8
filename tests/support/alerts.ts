import type { ReceivedMail } from "../fakes/smtp.js";

/** The token of an alert address's confirmation e-mail (its link to /settings/alerts/confirm?token=…). */
export function confirmationToken(mail: ReceivedMail): string {
  const match = /\/settings\/alerts\/confirm\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!match) throw new Error(`no confirmation link in the e-mail "${mail.subject}"`);
  return decodeURIComponent(match[1]!);
}

/** The confirmation link of an alert address's confirmation e-mail, as it reads. */
export function confirmationLink(mail: ReceivedMail): string {
  const match = /(https?:\/\/\S+\/settings\/alerts\/confirm\?token=\S+)/.exec(mail.text);
  if (!match) throw new Error(`no confirmation link in the e-mail "${mail.subject}"`);
  return match[1]!;
}

export const CONFIRMATION_SUBJECT = "Confirm your address for Tributary alerts";
