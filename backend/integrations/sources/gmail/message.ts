import type { gmail_v1 } from "@googleapis/gmail";
import { decodeEntities } from "../kit/index.js";
import type { EmailMessage } from "./records.js";

/**
 * A Gmail message (users.messages.get format=full) as the EmailMessage the stream writes: its headers, its addresses,
 * and its MIME tree decoded to body text. Outlook's reader turns its HTML bodies to text with htmlToText too.
 */

type Part = gmail_v1.Schema$MessagePart;

const headerOf = (part: Part | undefined, name: string) => part?.headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? "";

function findPart(part: Part | undefined, mimeType: string): Part | null {
  if (!part) return null;
  const disposition = headerOf(part, "Content-Disposition").toLowerCase();
  if (part.mimeType?.toLowerCase() === mimeType && part.body?.data && !part.filename && !disposition.startsWith("attachment")) return part;
  for (const child of part.parts ?? []) {
    const found = findPart(child, mimeType);
    if (found) return found;
  }
  return null;
}

function decodePart(part: Part): string {
  const bytes = Buffer.from(part.body?.data ?? "", "base64url");
  const charset = /charset="?([^";\s]+)"?/i.exec(headerOf(part, "Content-Type"))?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/** Readable text from HTML: no scripts or styles, block ends as line breaks, entities decoded. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, "")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<\/(p|div|li|tr|h[1-6]|blockquote|pre)\s*>/gi, "\n")
      .replace(/<li\b[^>]*>/gi, "- ")
      .replace(/<[^>]+>/g, ""),
  )
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The body as text: text/plain preferred, else text/html without its markup. */
export function bodyText(payload: Part | undefined): string {
  const plain = findPart(payload, "text/plain");
  if (plain) return decodePart(plain).replace(/\r\n/g, "\n").trim();
  const html = findPart(payload, "text/html");
  return html ? htmlToText(decodePart(html)) : "";
}

/** An address list header split at the commas between addresses (not those inside quotes or <>). */
export function addresses(value: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  let angle = 0;
  for (const ch of value) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === "<") angle++;
    else if (!quoted && ch === ">") angle = Math.max(0, angle - 1);
    if (ch === "," && !quoted && angle === 0) {
      if (current.trim()) out.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

export function toEmailMessage(message: gmail_v1.Schema$Message, mailbox: string): EmailMessage {
  const payload = message.payload ?? undefined;
  const internal = Number(message.internalDate);
  const sentAt = Number.isFinite(internal) && message.internalDate ? new Date(internal) : new Date(headerOf(payload, "Date"));
  return {
    id: message.id ?? "",
    thread_id: message.threadId ?? "",
    from: headerOf(payload, "From"),
    to: addresses(headerOf(payload, "To")),
    cc: addresses(headerOf(payload, "Cc")),
    subject: headerOf(payload, "Subject"),
    sent_at: sentAt,
    snippet: decodeEntities(message.snippet ?? ""),
    body_text: bodyText(payload),
    labels: message.labelIds ?? [],
    mailbox,
  };
}

/* ---- reading ---------------------------------------------------------------------------------------------- */
