import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One e-mail as the local SMTP server received it: its envelope, headers and plain text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/** Quoted-printable (what nodemailer uses for long lines) back to text. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) in a header, decoded; the space between two of them goes. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([\w-]+)\?([QB])\?([^?]*)\?=/gi, (_m, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function parse(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const qp = /quoted-printable/i.test(header("Content-Transfer-Encoding"));
  return { ...envelope, subject: decodeHeader(header("Subject")), text: (qp ? decodeQuotedPrintable(body) : body).replace(/\r\n/g, "\n"), raw };
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
        const envelope = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address) };
        mails.push(parse(Buffer.concat(chunks).toString("utf8"), envelope));
        callback();
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
