import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** One e-mail as the local SMTP server received it: its envelope, headers and plain text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps every message it is sent: what a test's
 * Tributary e-mails through SMTP_URL. No TLS and no sign-in, as a local relay.
 */
export async function startSmtpServer(): Promise<{ url: string; port: number; mails: ReceivedMail[]; waitFor(match: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const to = session.envelope.rcptTo.map((r) => r.address);
        // The message as a mail client reads it (headers decoded, quoted-printable undone): mailparser.
        simpleParser(raw).then(
          (parsed) => {
            mails.push({ from, to, subject: parsed.subject ?? "", text: parsed.text ?? "", raw });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    async waitFor(match, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const found = mails.find(match);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no such e-mail arrived; received: ${JSON.stringify(mails.map((m) => ({ to: m.to, subject: m.subject })))}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
