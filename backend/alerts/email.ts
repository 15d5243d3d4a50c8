import nodemailer, { type Transporter } from "nodemailer";
import pRetry from "p-retry";

/** E-mail alerts through the operator's SMTP server (SMTP_URL), with nodemailer. */

export interface EmailSettings {
  smtpUrl: string;
  from: string;
}

const transports = new Map<string, Transporter>();

function transport(smtpUrl: string): Transporter {
  let found = transports.get(smtpUrl);
  if (!found) {
    found = nodemailer.createTransport(smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as never);
    transports.set(smtpUrl, found);
  }
  return found;
}

/** The From when SMTP_FROM is unset: Tributary <alerts@APP_URL's host>. */
export function defaultFrom(appUrl: string): string {
  return `Tributary <alerts@${new URL(appUrl).hostname}>`;
}

/** Sends one e-mail, retried twice with backoff; `onAttempt` is told every attempt's outcome. */
export async function sendEmail(
  settings: EmailSettings,
  message: { to: string; subject: string; text: string },
  onAttempt: (attempt: number, error: string | null) => Promise<void>,
  retryMs = 1000,
): Promise<void> {
  await pRetry(
    async (n) => {
      try {
        await transport(settings.smtpUrl).sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text });
      } catch (error) {
        // The SMTP server's own words, without the URL (which may hold its password).
        await onAttempt(n, `The e-mail could not be sent: ${(error as Error).message}`);
        throw error;
      }
      await onAttempt(n, null);
    },
    { retries: 2, minTimeout: retryMs, factor: 2, randomize: false },
  );
}
