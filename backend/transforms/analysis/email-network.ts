import { addressList, parseAddress, threadKey, type EmailRow, type Side } from "./email-addresses.js";

/**
 * Who writes to whom: messages per (sender, recipient) pair, and per external domain (a domain not on our side) the
 * messages from and to it, its distinct correspondents and threads. A message counts once per pair and once per
 * domain, however many of its recipients share them; a message without a sender address counts nowhere. Threads come
 * one whole thread at a time (each once), so a pair's or domain's threads are counted with one remembered thread id.
 * (A message read from two mailboxes of one source, e.g. between two colleagues, counts once per mailbox.)
 */

export interface PairRow {
  from_address: string;
  to_address: string;
  /** Internal (us to us), Outbound (us to them), Inbound (them to us), External (them to them). */
  direction: string;
  messages: number;
  threads: number;
  first_message_at: Date;
  last_message_at: Date;
}

export interface DomainRow {
  /** 1 for the domain with the most messages. */
  rank: number;
  domain: string;
  /** Messages from or to someone at the domain. */
  messages: number;
  messages_from: number;
  messages_to: number;
  /** Distinct addresses at the domain. */
  correspondents: number;
  threads: number;
  first_message_at: Date;
  last_message_at: Date;
}

export function directionOf(fromUs: boolean, toUs: boolean): string {
  if (fromUs) return toUs ? "Internal" : "Outbound";
  return toUs ? "Inbound" : "External";
}

interface Span {
  threads: number;
  lastThread: string | null;
  first: number;
  last: number;
}

const span = (): Span => ({ threads: 0, lastThread: null, first: Infinity, last: -Infinity });

function touch(s: Span, thread: string, at: number): void {
  if (s.lastThread !== thread) {
    s.threads += 1;
    s.lastThread = thread;
  }
  s.first = Math.min(s.first, at);
  s.last = Math.max(s.last, at);
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class Correspondence {
  private readonly pairSums = new Map<string, Span & { from: string; to: string; direction: string; messages: number }>();
  private readonly domainSums = new Map<string, Span & { messages: number; from: number; to: number; people: Set<string> }>();

  constructor(private readonly options: { side: Side; includeCc: boolean }) {}

  add(thread: readonly EmailRow[]): void {
    for (const m of thread) {
      const sender = parseAddress(m.from_address);
      if (!sender) continue;
      const at = m.sent_at.getTime();
      const key = threadKey(m);
      const isUs = (address: string) => this.options.side.isUs(address, m.mailbox);
      const fromUs = isUs(sender.address);
      const recipients = addressList(this.options.includeCc ? [...m.to_addresses, ...m.cc_addresses] : m.to_addresses).filter((r) => r.address !== sender.address);
      for (const r of recipients) {
        const id = `${sender.address}\u0000${r.address}`;
        let p = this.pairSums.get(id);
        if (!p) this.pairSums.set(id, (p = { ...span(), from: sender.address, to: r.address, direction: directionOf(fromUs, isUs(r.address)), messages: 0 }));
        p.messages += 1;
        touch(p, key, at);
      }
      // Each external domain of the message once: from it, to it, or both.
      const domains = new Map<string, { from: boolean; to: boolean; people: string[] }>();
      const note = (address: string, domain: string, as: "from" | "to") => {
        if (!domain || isUs(address)) return;
        const d = domains.get(domain) ?? { from: false, to: false, people: [] };
        d[as] = true;
        d.people.push(address);
        domains.set(domain, d);
      };
      note(sender.address, sender.domain, "from");
      for (const r of recipients) note(r.address, r.domain, "to");
      for (const [domain, d] of domains) {
        let s = this.domainSums.get(domain);
        if (!s) this.domainSums.set(domain, (s = { ...span(), messages: 0, from: 0, to: 0, people: new Set() }));
        s.messages += 1;
        if (d.from) s.from += 1;
        if (d.to) s.to += 1;
        for (const person of d.people) s.people.add(person);
        touch(s, key, at);
      }
    }
  }

  /** The `top` pairs with the most messages (then by sender and recipient). */
  pairs(top: number): PairRow[] {
    return [...this.pairSums.values()]
      .sort((a, b) => b.messages - a.messages || byText(a.from, b.from) || byText(a.to, b.to))
      .slice(0, Math.max(0, top))
      .map((p) => ({
        from_address: p.from,
        to_address: p.to,
        direction: p.direction,
        messages: p.messages,
        threads: p.threads,
        first_message_at: new Date(p.first),
        last_message_at: new Date(p.last),
      }));
  }

  /** The `top` external domains with the most messages (then by name), ranked. */
  domains(top: number): DomainRow[] {
    return [...this.domainSums.entries()]
      .sort(([a, x], [b, y]) => y.messages - x.messages || byText(a, b))
      .slice(0, Math.max(0, top))
      .map(([domain, s], i) => ({
        rank: i + 1,
        domain,
        messages: s.messages,
        messages_from: s.from,
        messages_to: s.to,
        correspondents: s.people.size,
        threads: s.threads,
        first_message_at: new Date(s.first),
        last_message_at: new Date(s.last),
      }));
  }
}
