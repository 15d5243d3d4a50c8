import type { gmail_v1 } from "@googleapis/gmail";
import { convert, type HtmlToTextOptions } from "html-to-text";
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

/**
 * Readable text from HTML (the html-to-text library): no scripts, styles or images, links as their words, block ends as
 * line breaks, list items as "- item", entities decoded, no wrapping (a body is stored as written, for the analyses).
 */
const HTML_TO_TEXT: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
    // A paragraph, a list or a heading ends its line; a blank line is the author's own (<br>, an empty <div>).
    { selector: "p", options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: "ul", options: { itemPrefix: "- ", leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: "ol", options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false, leadingLineBreaks: 1, trailingLineBreaks: 1 } })),
    { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
  ],
};

export function htmlToText(html: string): string {
  return convert(html, HTML_TO_TEXT)
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
