import { createHash } from "node:crypto";
import type http from "node:http";
import { pageOf } from "./zoom.js";

/**
 * The Gmail API part of the fake Google (tests/fakes/google-admin.ts): a few
 * deterministic messages per mailbox, and users.messages.list (q with
 * after:/before: in epoch seconds, maxResults, pageToken),
 * users.messages.get (format=full, the MIME tree with base64url bodies) and
 * users.history.list (the messages added since a history id, paged; 404 for
 * an expired one), with Google's shapes and errors.
 */

export interface FakeGmailMessage {
  id: string;
  threadId: string;
  mailbox: string;
  internalDate: Date;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  labelIds: string[];
  snippet: string;
  payload: GmailPart;
  /** What a reader should make of the body. */
  text: string;
}

export interface GmailPart {
  partId: string;
  mimeType: string;
  filename: string;
  headers: { name: string; value: string }[];
  body: { size: number; data?: string; attachmentId?: string };
  parts?: GmailPart[];
}

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64url");

function leaf(partId: string, mimeType: string, content: Buffer | string, extraHeaders: { name: string; value: string }[] = [], filename = ""): GmailPart {
  const bytes = Buffer.from(content);
  return {
    partId,
    mimeType,
    filename,
    headers: extraHeaders.some((h) => h.name === "Content-Type") ? extraHeaders : [{ name: "Content-Type", value: mimeType.startsWith("text/") ? `${mimeType}; charset="UTF-8"` : mimeType }, ...extraHeaders],
    body: filename ? { size: bytes.length, attachmentId: `ANGjdJ8${createHash("md5").update(bytes).digest("hex")}` } : { size: bytes.length, data: b64(bytes) },
  };
}

function multipart(partId: string, mimeType: string, parts: GmailPart[]): GmailPart {
  return { partId, mimeType, filename: "", headers: [{ name: "Content-Type", value: `${mimeType}; boundary="000000000000b0undary"` }], body: { size: 0 }, parts };
}

/** Five bodies, one per kind of MIME tree the reader must handle. */
function bodyFor(n: number, who: string): { payload: () => GmailPart; text: string } {
  switch (n % 5) {
    case 0: {
      const text = `Hi ${who},\n\nThe renewal quote is attached to the thread. Let me know by Friday.\n\nThanks`;
      return {
        text,
        payload: () => multipart("", "multipart/alternative", [leaf("0", "text/plain", text.replace(/\n/g, "\r\n")), leaf("1", "text/html", `<div dir="ltr">Hi ${who},<br><br>The <b>renewal quote</b> is attached.</div>`)]),
      };
    }
    case 1:
      return {
        text: `Hello ${who}\nAgenda:\n- Pricing & seats\n- Security review\nSee you <soon>`,
        payload: () =>
          leaf("", "text/html", `<html><head><style>p{color:red}</style></head><body><p>Hello ${who}</p><p>Agenda:</p><ul><li>Pricing &amp; seats</li><li>Security&nbsp;review</li></ul><p>See you &lt;soon&gt;</p></body></html>`),
      };
    case 2: {
      const text = `${who}, the signed order form is in the PDF.`;
      return {
        text,
        payload: () =>
          multipart("", "multipart/mixed", [
            multipart("0", "multipart/alternative", [leaf("0.0", "text/plain", text), leaf("0.1", "text/html", `<p>${text}</p>`)]),
            leaf("1", "application/pdf", "%PDF-1.4 fake", [{ name: "Content-Disposition", value: 'attachment; filename="order.pdf"' }], "order.pdf"),
          ]),
      };
    }
    case 3: {
      const text = `Café meeting moved to 3pm, ${who}.`;
      return { text, payload: () => leaf("", "text/plain", Buffer.from(text, "latin1"), [{ name: "Content-Type", value: "text/plain; charset=ISO-8859-1" }]) };
    }
    default: {
      const text = `Quick note for ${who}: the pilot starts Monday.`;
      return { text, payload: () => leaf("", "text/plain", text) };
    }
  }
}

/**
 * One message of `mailbox` sent at `sent`, the `n`th of its kind (n % 5 picks the MIME shape and the subject); `seed`
 * makes its id differ from another's sent at the same millisecond. Ids are hex with the sending time in their high
 * bits, as Gmail's are.
 */
export function gmailMessage(mailbox: string, sent: Date, n: number, seed: string, threadId?: string): FakeGmailMessage {
  const id = (BigInt(sent.getTime()) * 1_048_576n + BigInt(parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 5), 16))).toString(16);
  const who = mailbox.split("@")[0]!;
  const other = `customer${n % 5}@globex.example`;
  const incoming = n % 2 === 0;
  const from = incoming ? `"Globex, Buyer ${n % 5}" <${other}>` : `${who[0]!.toUpperCase()}${who.slice(1)} <${mailbox}>`;
  const to = incoming ? [mailbox] : [`"Buyer, Globex" <${other}>`, "ops@globex.example"];
  const cc = n % 5 === 1 ? ["finance@acme.example"] : [];
  const subject = `Globex order ${n + 1}: ${["renewal", "agenda", "order form", "venue", "pilot"][n % 5]}`;
  const body = bodyFor(n, who);
  const headers = [
    { name: "From", value: from },
    { name: "To", value: to.join(", ") },
    ...(cc.length ? [{ name: "Cc", value: cc.join(", ") }] : []),
    { name: "Subject", value: subject },
    { name: "Date", value: sent.toUTCString().replace("GMT", "+0000") },
    { name: "Message-ID", value: `<${id}@mail.acme.example>` },
    { name: "MIME-Version", value: "1.0" },
  ];
  return {
    id,
    threadId: threadId ?? id,
    mailbox,
    internalDate: sent,
    from,
    to,
    cc,
    subject,
    labelIds: incoming ? ["INBOX", "UNREAD", "CATEGORY_PERSONAL"] : ["SENT"],
    snippet: body.text.replace(/\s+/g, " ").slice(0, 60).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
    // The top part carries the message's headers, then its own (Content-Type).
    payload: (() => {
      const part = body.payload();
      return { ...part, headers: [...headers, ...part.headers] };
    })(),
    text: body.text,
  };
}

/**
 * Every mailbox's messages around `anchor` (a UTC midnight): sent 6 hours and
 * 1, 2, 3 and 8 days before it, each with a different MIME shape.
 */
export function gmailFixture(anchor: Date, mailboxes: string[]): FakeGmailMessage[] {
  const out: FakeGmailMessage[] = [];
  mailboxes.forEach((mailbox, m) => {
    [0.25, 1, 2, 3, 8].forEach((daysBefore, n) => {
      const sent = new Date(anchor.getTime() - daysBefore * 86_400_000 + (m * 7 + n) * 60_000);
      out.push(gmailMessage(mailbox, sent, n, `${mailbox}:${n}`, n === 1 ? out[out.length - 1]!.threadId : undefined));
    });
  });
  return out;
}

type ApiError = (res: http.ServerResponse, code: number, message: string, status: string) => void;
type Json = (res: http.ServerResponse, status: number, body: unknown) => void;

/* ---- history: Gmail's change feed ---------------------------------------------------------------------------- */

interface HistoryRecord {
  id: number;
  message: FakeGmailMessage;
}

/**
 * Every message added to a mailbox gets a history record whose id is larger than any before it, with gaps between
 * (Google: "History IDs increase chronologically but are not contiguous"). One counter serves every mailbox, as each
 * mailbox only ever sees its own ids increase. After `expire()`, a startHistoryId up to the last id before it is
 * answered 404, as Google answers one too old to keep.
 */
export class FakeGmailHistory {
  private readonly records: HistoryRecord[] = [];
  private readonly ids = new Map<FakeGmailMessage, number>();
  private last = 100_000;
  private expiredThrough = 0;

  /** The mailbox's current history id (users.getProfile's, users.history.list's). */
  get current(): number {
    return this.last;
  }

  /** Records the message's arrival; answers its history id. */
  add(message: FakeGmailMessage): number {
    this.last += 1 + (this.records.length % 3);
    this.records.push({ id: this.last, message });
    this.ids.set(message, this.last);
    return this.last;
  }

  idOf(message: FakeGmailMessage): number {
    return this.ids.get(message) ?? this.last;
  }

  /** Forgets the history so far: every history id given out until now is too old from now on. */
  expire(): void {
    this.expiredThrough = this.last;
    this.last += 10;
  }

  /** The mailbox's records after `start`, or null when `start` is too old. */
  since(mailbox: string, start: number): HistoryRecord[] | null {
    if (start <= this.expiredThrough) return null;
    return this.records.filter((r) => r.id > start && r.message.mailbox === mailbox);
  }
}

const HISTORY_TYPES = ["messageAdded", "messageDeleted", "labelAdded", "labelRemoved"];

/**
 * Answers GET /gmail/v1/users/{userId}/history for `mailbox`: startHistoryId (required), historyTypes (repeated),
 * labelId, maxResults (default 100, at most 500), pageToken. Only messageAdded records exist here. Returns false for
 * other paths.
 */
export function handleGmailHistory(
  url: URL,
  mailbox: string,
  history: FakeGmailHistory,
  pageTokens: Map<string, number>,
  maxPageSize: number,
  res: http.ServerResponse,
  json: Json,
  apiError: ApiError,
): boolean {
  if (!/^\/gmail\/v1\/users\/[^/]+\/history$/.test(url.pathname)) return false;
  const start = url.searchParams.get("startHistoryId") ?? "";
  if (!/^\d+$/.test(start)) {
    apiError(res, 400, start ? "Invalid startHistoryId" : "Missing required parameter: startHistoryId", "INVALID_ARGUMENT");
    return true;
  }
  const types = url.searchParams.getAll("historyTypes");
  const unknown = types.find((t) => !HISTORY_TYPES.includes(t));
  if (unknown) {
    apiError(res, 400, `Invalid value at 'history_types' (${unknown})`, "INVALID_ARGUMENT");
    return true;
  }
  const records = history.since(mailbox, Number(start));
  if (!records) {
    apiError(res, 404, "Requested entity was not found.", "NOT_FOUND");
    return true;
  }
  const labelId = url.searchParams.get("labelId");
  const selected = records.filter((r) => (types.length === 0 || types.includes("messageAdded")) && (!labelId || r.message.labelIds.includes(labelId)));
  const size = Math.min(maxPageSize, 500, Number(url.searchParams.get("maxResults") ?? 100) || 100);
  const page = pageOf(selected, size, url.searchParams.get("pageToken"), pageTokens);
  json(res, 200, {
    ...(page.items.length
      ? {
          history: page.items.map((r) => ({
            id: String(r.id),
            messages: [{ id: r.message.id, threadId: r.message.threadId }],
            messagesAdded: [{ message: { id: r.message.id, threadId: r.message.threadId, labelIds: r.message.labelIds } }],
          })),
        }
      : {}),
    ...(page.next ? { nextPageToken: page.next } : {}),
    historyId: String(history.current),
  });
  return true;
}

/**
 * Answers GET /gmail/v1/users/{userId}/messages[/{id}] for `mailbox` (the
 * authorized user, when userId is "me" or their address). Returns false for
 * other paths.
 */
export function handleGmailMessages(
  url: URL,
  mailbox: string,
  messages: FakeGmailMessage[],
  history: FakeGmailHistory,
  pageTokens: Map<string, number>,
  maxPageSize: number,
  res: http.ServerResponse,
  json: Json,
  apiError: ApiError,
): boolean {
  const one = /^\/gmail\/v1\/users\/[^/]+\/messages\/([^/]+)$/.exec(url.pathname);
  if (one) {
    const message = messages.find((m) => m.mailbox === mailbox && m.id === decodeURIComponent(one[1]!));
    if (!message) {
      apiError(res, 404, "Requested entity was not found.", "NOT_FOUND");
      return true;
    }
    const format = url.searchParams.get("format") ?? "full";
    if (format !== "full" && format !== "metadata" && format !== "minimal") {
      apiError(res, 400, `Invalid value at 'format' (${format})`, "INVALID_ARGUMENT");
      return true;
    }
    json(res, 200, {
      id: message.id,
      threadId: message.threadId,
      labelIds: message.labelIds,
      snippet: message.snippet,
      historyId: String(history.idOf(message)),
      internalDate: String(message.internalDate.getTime()),
      sizeEstimate: 2048,
      ...(format === "minimal" ? {} : { payload: format === "full" ? message.payload : { ...message.payload, body: { size: 0 }, parts: undefined } }),
    });
    return true;
  }
  if (!/^\/gmail\/v1\/users\/[^/]+\/messages$/.test(url.pathname)) return false;
  const q = url.searchParams.get("q") ?? "";
  let after = -Infinity;
  let before = Infinity;
  for (const term of q.split(/\s+/).filter(Boolean)) {
    const m = /^(after|before):(\d+)$/.exec(term);
    if (!m) {
      apiError(res, 400, `This fake understands only after:/before: with epoch seconds in q, not ${term}`, "INVALID_ARGUMENT");
      return true;
    }
    if (m[1] === "after") after = Number(m[2]) * 1000;
    else before = Number(m[2]) * 1000;
  }
  // Google leaves spam and trash out unless includeSpamTrash=true.
  const spamTrash = url.searchParams.get("includeSpamTrash") === "true";
  const selected = messages
    .filter((m) => m.mailbox === mailbox && m.internalDate.getTime() >= after && m.internalDate.getTime() < before)
    .filter((m) => spamTrash || !m.labelIds.some((l) => l === "SPAM" || l === "TRASH"))
    .sort((a, b) => b.internalDate.getTime() - a.internalDate.getTime());
  const size = Math.min(maxPageSize, Number(url.searchParams.get("maxResults") ?? 100) || 100);
  const page = pageOf(selected, size, url.searchParams.get("pageToken"), pageTokens);
  json(res, 200, {
    ...(page.items.length ? { messages: page.items.map((m) => ({ id: m.id, threadId: m.threadId })) } : {}),
    ...(page.next ? { nextPageToken: page.next } : {}),
    resultSizeEstimate: selected.length,
  });
  return true;
}
