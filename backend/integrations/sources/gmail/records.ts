import type { Row } from "../../destinations/writer.js";
import { safeId } from "../kit/ids.js";
import type { EmitContext, RecordSink } from "../plugin.js";

/** A Gmail message as the reader yields it, and what a sync writes of it: a row of `email_messages` and its files. */

export interface EmailMessage {
  /** Gmail's message id. */
  id: string;
  thread_id: string;
  /** The From header, as sent ("Name <address>"). */
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  sent_at: Date;
  snippet: string;
  /** The text/plain part, else the text/html part with its markup removed. */
  body_text: string;
  labels: string[];
  /** The mailbox the message was read from (an e-mail address). */
  mailbox: string;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

function messageJson(m: EmailMessage) {
  return { ...m, sent_at: m.sent_at.toISOString() };
}

function messageText(m: EmailMessage): string {
  const lines = [`From: ${m.from}`, `To: ${m.to.join(", ")}`];
  if (m.cc.length) lines.push(`Cc: ${m.cc.join(", ")}`);
  lines.push(`Subject: ${m.subject}`, `Date: ${m.sent_at.toISOString()}`, "", m.body_text);
  return lines.join("\n").replace(/\n*$/, "\n");
}

/** An e-mail's objects: `<platform>/<source id>/<yyyy-mm-dd>/<message id>.json` and `.txt`. */
export function messageFiles(platform: string, sourceId: string, m: EmailMessage): { path: string; body: string; contentType: string }[] {
  const base = `${platform}/${sourceId}/${day(m.sent_at)}/${safeId(m.id)}`;
  return [
    { path: `${base}.json`, body: JSON.stringify(messageJson(m)), contentType: "application/json" },
    { path: `${base}.txt`, body: messageText(m), contentType: "text/plain" },
  ];
}

/** An e-mail's row in `email_messages` (key `message_id`). */
export function messageRow(sourceId: string, m: EmailMessage): Row {
  return {
    message_id: m.id,
    source_id: sourceId,
    thread_id: m.thread_id,
    mailbox: m.mailbox,
    from_address: m.from,
    to_addresses: m.to,
    cc_addresses: m.cc,
    subject: m.subject,
    sent_at: m.sent_at,
    snippet: m.snippet,
    body_text: m.body_text,
    labels: m.labels,
  };
}

/** A message's row and files, into the sync's batch (the stream of contract/integrations/streams.ts EMAIL_STREAMS). */
export function emitMessage(m: EmailMessage, { platform, sourceId }: EmitContext, out: RecordSink): void {
  out.row("email_messages", messageRow(sourceId, m));
  for (const file of messageFiles(platform, sourceId, m)) out.file("email_messages", file);
}
