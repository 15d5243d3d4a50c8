import addressparser from "nodemailer/lib/addressparser";
import { timeOf } from "./types.js";

/**
 * E-mail messages as the e-mail templates read them (warehouse table `email_messages`), and their addresses. Headers
 * are parsed with nodemailer's RFC 5322 address parser ("Name <addr>", quoted names with commas, groups, bare
 * addresses); an address is compared lower-cased, and its domain is what follows its last "@". Text that holds no
 * address (an empty header, "undisclosed-recipients:;", a name without "<…>") gives none.
 */

/** One synced message: the columns of `email_messages` the templates read. */
export interface EmailRow {
  message_id: string;
  /** The conversation; null when the provider gave none (the message is a thread of its own). */
  thread_id: string | null;
  /** The mailbox it was read from (an e-mail address): "us" when no internal domains are given. */
  mailbox: string;
  /** The From header as sent. */
  from_address: string;
  to_addresses: string[];
  cc_addresses: string[];
  subject: string;
  sent_at: Date;
  snippet: string;
  body_text: string;
}

export interface Address {
  /** Lower-cased. */
  address: string;
  /** The display name, as sent ("" when none). */
  name: string;
  /** Lower-cased; "" when the address has no "@". */
  domain: string;
}

/** The domain of an address (after its last "@"), lower-cased; "" when it has none. */
export function domainOf(address: string): string {
  const at = address.lastIndexOf("@");
  return at < 0 ? "" : address.slice(at + 1).trim().toLowerCase();
}

/** Every address of a header's text, in order, duplicates kept; groups are flattened. */
export function parseAddresses(text: string | null | undefined): Address[] {
  if (!text || !text.trim()) return [];
  let parsed: { name: string; address: string }[];
  try {
    parsed = addressparser(text, { flatten: true });
  } catch {
    return [];
  }
  const out: Address[] = [];
  for (const p of parsed) {
    const address = (p.address ?? "").trim().toLowerCase();
    if (!address.includes("@")) continue;
    out.push({ address, name: (p.name ?? "").trim(), domain: domainOf(address) });
  }
  return out;
}

/** The first address of a header (a From header holds one), or null. */
export function parseAddress(text: string | null | undefined): Address | null {
  return parseAddresses(text)[0] ?? null;
}

/** The distinct addresses of a list of header values (each may hold several), in first-seen order. */
export function addressList(values: readonly string[]): Address[] {
  const seen = new Map<string, Address>();
  for (const value of values) for (const a of parseAddresses(value)) if (!seen.has(a.address)) seen.set(a.address, a);
  return [...seen.values()];
}

/**
 * Which addresses are "us": those at one of `internalDomains` (or a subdomain of one), or, with none given, at the
 * domain of the mailbox the message was read from. The mailbox itself is always us.
 */
export class Side {
  private readonly domains: string[];

  constructor(internalDomains: readonly string[] = []) {
    this.domains = internalDomains.map((d) => d.trim().toLowerCase().replace(/^@/, "")).filter(Boolean);
  }

  /** Whether `address` is on our side for a message of `mailbox`. */
  isUs(address: string, mailbox: string): boolean {
    const a = address.toLowerCase();
    const own = mailbox.trim().toLowerCase();
    if (a && a === own) return true;
    const domain = domainOf(a);
    if (!domain) return false;
    const domains = this.domains.length ? this.domains : [domainOf(own)].filter(Boolean);
    return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
  }
}

const text = (v: unknown) => (typeof v === "string" ? v : v == null ? "" : String(v));

/** A JSON list column as a warehouse hands it back: an array, its JSON text, or one header's text. */
function stringList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(text).filter(Boolean);
  if (typeof v === "string") {
    const t = v.trim();
    if (t.startsWith("[")) {
      try {
        return stringList(JSON.parse(t));
      } catch {
        return [t];
      }
    }
    return t ? [t] : [];
  }
  return [];
}

/** A scanned row of `email_messages` as an EmailRow (missing values as empty, a blank thread as none). */
export function emailRowOf(r: Record<string, unknown>): EmailRow {
  const thread = text(r.thread_id).trim();
  return {
    message_id: text(r.message_id),
    thread_id: thread || null,
    mailbox: text(r.mailbox),
    from_address: text(r.from_address),
    to_addresses: stringList(r.to_addresses),
    cc_addresses: stringList(r.cc_addresses),
    subject: text(r.subject),
    sent_at: new Date(timeOf(r.sent_at as Date | string | number | null)),
    snippet: text(r.snippet),
    body_text: text(r.body_text),
  };
}

/** The key a message's thread is grouped by: its thread id, or its own id when it has none. */
export const threadKey = (m: EmailRow) => m.thread_id ?? m.message_id;

/** A sender's identity for "a different sender replied": the parsed address, else the header's text. */
export const senderOf = (m: EmailRow) => parseAddress(m.from_address)?.address ?? m.from_address.trim().toLowerCase();

/** A thread's messages in its order: by time sent, then id. */
export function orderThread(messages: readonly EmailRow[]): EmailRow[] {
  return [...messages].sort((a, b) => a.sent_at.getTime() - b.sent_at.getTime() || (a.message_id < b.message_id ? -1 : a.message_id > b.message_id ? 1 : 0));
}

/** Minutes, 2 decimals. */
export function round2(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? 0 : rounded;
}
