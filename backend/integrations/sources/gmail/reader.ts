import { admin } from "@googleapis/admin";
import { gmail, type gmail_v1 } from "@googleapis/gmail";
import { gmailConfig, gmailOAuthConfig } from "./config.js";
import { delegatedClient, DIRECTORY_SCOPE, DIRECTORY_USER_SCOPE, GMAIL_SCOPE, oauthClient, type GmailTokens } from "./auth.js";
import { providerTimeoutMs } from "../../../lib/outbound.js";
import { inWindow, PermanentReadError, withRateLimit } from "../kit/index.js";
import type { ReaderContext } from "../plugin.js";
import type { EmailMessage } from "./records.js";
import { toEmailMessage } from "./message.js";

/**
 * Gmail through the official clients (@googleapis/gmail, @googleapis/admin on
 * google-auth-library): the mailboxes in scope (the signed-in user's own for
 * INDIVIDUAL; for GROUP the group's members, for ORG the Workspace's users,
 * both listed with the Admin SDK as the source's admin), then per mailbox
 * users.messages.list with q=after:/before: (epoch seconds) page by page and
 * users.messages.get format=full, the MIME tree decoded to body_text.
 *
 * Incremental (issue 52): messages never change, so one that landed (its id)
 * is not fetched again. A sync saves, per mailbox, a history id; the next
 * sync reads the mailbox's change feed from it (users.history.list,
 * messageAdded) instead of listing its window, and fetches only the messages
 * added since. A mailbox with no saved history id (the first sync, a new group
 * member) or one Gmail no longer keeps history for (404) is listed as before.
 *
 * The clients' own retries are off (`retry: false`): a 429 waits as long as
 * its Retry-After asks (within reason), anything else is classified here.
 */

const NO_RETRY = { retry: false } as const;

interface GoogleErrorLike {
  status?: number;
  code?: string | number;
  message?: string;
  response?: { status?: number; headers?: unknown; data?: { error?: string | { message?: string }; error_description?: string } };
}

const statusOf = (error: unknown) => {
  const e = error as GoogleErrorLike;
  return e?.response?.status ?? (typeof e?.status === "number" ? e.status : undefined);
};

function header(headers: unknown, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === "string" ? value : null;
}

/** A Google call with 429 handling; anything else it throws is classified by `classify`. */
async function call<T>(work: () => Promise<T>, what: string, fix: string): Promise<T> {
  try {
    return await withRateLimit("Google", work, (error) => (error instanceof Error && statusOf(error) === 429 ? header((error as GoogleErrorLike).response?.headers, "retry-after") : false));
  } catch (error) {
    throw classify(error, what, fix);
  }
}

function classify(error: unknown, what: string, fix: string): Error {
  if (error instanceof PermanentReadError) return error;
  const e = error as GoogleErrorLike;
  const data = e?.response?.data;
  const status = statusOf(error);
  if (/limiting Tributary's requests/.test(e?.message ?? "")) return error as Error;
  const detail = (typeof data?.error === "object" ? data.error.message : data?.error_description || (typeof data?.error === "string" ? data.error : undefined)) ?? e?.message ?? `status ${status}`;
  const reason = String(detail).replace(/\.$/, "");
  if (status === undefined && !data) return new Error(`Google could not be reached to ${what} (${reason}); the sync will try again.`);
  if (status !== undefined && (status >= 500 || status === 429)) return new Error(`Google answered ${status} while trying to ${what} (${reason}); the sync will try again.`);
  return new PermanentReadError(`Google refused to ${what} (${reason}). ${fix}`);
}

/* ---- MIME ------------------------------------------------------------------------------------------------ */


interface Mailbox {
  /** users.messages' userId: the address, or "me" for the signed-in user. */
  userId: string;
  address: string;
  api: gmail_v1.Gmail;
  fix: string;
  /** Waits for refreshed tokens to be stored. */
  settle?: () => Promise<void>;
}

async function* delegatedMailboxes(context: ReaderContext): AsyncGenerator<Mailbox> {
  const config = gmailConfig();
  const metadata = context.source.metadata;
  const adminEmail = String(metadata.admin_email ?? "");
  if (!adminEmail) throw new PermanentReadError("The Gmail source names no Workspace admin. Create the source again with the admin's e-mail.");
  const delegationFix = (scopes: string[], who: string) =>
    `A Workspace super administrator must grant Tributary's service account domain-wide delegation for ${scopes.join(", ")} (Admin console → Security → API controls → Domain-wide delegation), and ${who}.`;
  const group = metadata.gmail_extraction_scope === "GROUP" ? String(metadata.gmail_group_id ?? "") : null;
  const scopes = group ? [DIRECTORY_SCOPE] : [DIRECTORY_USER_SCOPE];
  const directory = admin({ version: "directory_v1", auth: delegatedClient(config, adminEmail, scopes, providerTimeoutMs()) as any, rootUrl: `${config.adminBaseUrl}/`, timeout: providerTimeoutMs() });
  const directoryFix = delegationFix(scopes, `${adminEmail} must be an administrator of the Workspace`);
  const addresses: string[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    if (group) {
      const groupName = String(metadata.gmail_group_email ?? metadata.gmail_group_name ?? group);
      const { data } = await call(
        () => directory.members.list({ groupKey: group, maxResults: 200, pageToken, includeDerivedMembership: true }, NO_RETRY),
        `list the members of the group ${groupName}`,
        directoryFix,
      );
      for (const m of data.members ?? []) if (m.email && (m.type ?? "USER") === "USER" && (m.status ?? "ACTIVE") === "ACTIVE") addresses.push(m.email.toLowerCase());
      pageToken = data.nextPageToken ?? undefined;
    } else {
      const { data } = await call(() => directory.users.list({ customer: "my_customer", maxResults: 500, pageToken }, NO_RETRY), "list the Workspace's users", directoryFix);
      for (const u of data.users ?? []) if (u.primaryEmail && !u.suspended && !u.archived) addresses.push(u.primaryEmail.toLowerCase());
      pageToken = data.nextPageToken ?? undefined;
    }
    if (!pageToken) break;
  }
  for (const address of [...new Set(addresses)].sort()) {
    yield {
      userId: address,
      address,
      api: gmail({ version: "v1", auth: delegatedClient(config, address, [GMAIL_SCOPE], providerTimeoutMs()) as any, rootUrl: `${config.gmailBaseUrl}/`, timeout: providerTimeoutMs() }),
      fix: delegationFix([GMAIL_SCOPE], `${address} must still be an active user of the Workspace`),
    };
  }
}

function individualMailbox(context: ReaderContext): Mailbox {
  const config = gmailOAuthConfig();
  if (!context.credential.secret) throw new PermanentReadError("The Gmail credential holds no token. Create the source again to sign in with Google.");
  const tokens = context.services.secrets.open<GmailTokens>(context.credential.secret);
  const client = oauthClient(config, "", tokens, providerTimeoutMs());
  // google-auth-library refreshes an expired access token with the refresh token; keep the new one.
  let saving: Promise<void> = Promise.resolve();
  client.on("tokens", (t) => {
    const next: GmailTokens = { access_token: t.access_token ?? tokens.access_token, refresh_token: t.refresh_token ?? tokens.refresh_token, expiry_date: t.expiry_date ?? null };
    saving = saving.then(() => context.saveSecret(next));
  });
  const address = String(context.credential.metadata.email ?? "");
  return {
    userId: "me",
    address,
    api: gmail({ version: "v1", auth: client as any, rootUrl: `${config.gmailBaseUrl}/`, timeout: providerTimeoutMs() }),
    fix: `${address || "The mailbox's owner"} must sign in with Google again and allow read-only mail access: create the Gmail source again.`,
    settle: () => saving,
  };
}

/* ---- incremental reading (issue 52) ---------------------------------------------------------------------- */

/**
 * What a sync leaves the next about one mailbox (the tracker's token is a JSON map mailbox → mark): the history id
 * its change feed is read from, and the ids of messages sent after the window's end that Gmail had before that history
 * id (`pending`): the next sync's history starts after them, so it reads them by id.
 */
export interface MailboxMark {
  historyId: string;
  pending?: string[];
}

export type MailboxMarks = Record<string, MailboxMark>;

/** The marks of the last complete sync; a token this code cannot read counts as none (every mailbox is listed). */
export function parseMarks(token: string | null): MailboxMarks {
  if (!token) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(token);
  } catch {
    return {};
  }
  const marks: MailboxMarks = {};
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return marks;
  for (const [mailbox, value] of Object.entries(parsed as Record<string, unknown>)) {
    const mark = value as Partial<MailboxMark> | null;
    if (typeof mark?.historyId !== "string" || !/^\d+$/.test(mark.historyId)) continue;
    const pending = Array.isArray(mark.pending) ? mark.pending.filter((id): id is string => typeof id === "string") : [];
    marks[mailbox] = pending.length ? { historyId: mark.historyId, pending } : { historyId: mark.historyId };
  }
  return marks;
}

/** Spam and trash are left out of the listings (includeSpamTrash: false); the change feed's additions are filtered alike. */
const LEFT_OUT_LABELS = new Set(["SPAM", "TRASH"]);

/** One mailbox's read: the messages it fetched or skipped, and those found sent after the window's end. */
class MailboxRead {
  readonly label: string;
  /** Ids dealt with in this read (a message listed twice is fetched once). */
  private readonly handled = new Set<string>();
  /** Messages sent at or after the window's end: not this read's, the next one's. */
  readonly later = new Set<string>();

  constructor(
    private readonly context: ReaderContext,
    readonly mailbox: Mailbox,
  ) {
    this.label = mailbox.address ? `the mailbox ${mailbox.address}` : "the mailbox";
  }

  /** The message, fetched unless it landed before or was dealt with in this read, when it falls in the window. */
  async message(id: string): Promise<EmailMessage | null> {
    const { tracker, window } = this.context;
    if (this.handled.has(id)) return null;
    this.handled.add(id);
    // Messages never change: one that landed is not fetched again. Its time is not known before the fetch (neither the
    // listing nor the change feed gives it); the window's end bounds it, so the tracker keeps it at least as long as a
    // later listing of the overlap may list it again.
    if (tracker.unchanged(id, id, window.to)) return null;
    const { mailbox, label } = this;
    const message = await call(
      async () => {
        try {
          return (await mailbox.api.users.messages.get({ userId: mailbox.userId, id, format: "full" }, NO_RETRY)).data;
        } catch (error) {
          if (statusOf(error) === 404) return null; // deleted since it was listed
          throw error;
        }
      },
      `read a message of ${label}`,
      mailbox.fix,
    );
    if (!message) return null;
    const email = toEmailMessage(message, mailbox.address);
    if (Number.isNaN(email.sent_at.getTime())) return null;
    if (email.sent_at.getTime() >= window.to.getTime()) {
      this.later.add(id);
      return null;
    }
    if (!inWindow(email.sent_at, window)) return null;
    tracker.read(id, id, email.sent_at);
    return email;
  }

  /** Whether this read dealt with the message already (read it, skipped it, or found it after the window's end). */
  has(id: string): boolean {
    return this.handled.has(id);
  }

  /** The next mark: the history id, and the messages sent after the window's end. */
  mark(historyId: string): MailboxMark {
    return this.later.size ? { historyId, pending: [...this.later] } : { historyId };
  }
}

/**
 * The ids of the messages added to the mailbox after `startHistoryId` (Gmail's users.history.list, messageAdded,
 * every page) and its history id now; null when Gmail no longer keeps history that old (404: a full listing is due).
 */
async function addedSince(read: MailboxRead, startHistoryId: string): Promise<{ added: string[]; historyId: string } | null> {
  const { mailbox, label } = read;
  const added: string[] = [];
  let historyId: string | null = null;
  let pageToken: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const data = await call(
      async () => {
        try {
          return (await mailbox.api.users.history.list({ userId: mailbox.userId, startHistoryId, historyTypes: ["messageAdded"], maxResults: 500, pageToken }, NO_RETRY)).data;
        } catch (error) {
          if (statusOf(error) === 404) return null;
          throw error;
        }
      },
      `read the changes of ${label}`,
      mailbox.fix,
    );
    if (!data) return null;
    // The first page's history id: every change up to it is in these pages. A change after it that a later page holds
    // is listed again next time, and skipped as landed.
    historyId ??= data.historyId ?? null;
    for (const record of data.history ?? []) {
      for (const { message } of record.messagesAdded ?? []) {
        if (message?.id && !message.labelIds?.some((l) => LEFT_OUT_LABELS.has(l))) added.push(message.id);
      }
    }
    pageToken = data.nextPageToken ?? undefined;
    if (!pageToken) break;
  }
  return { added, historyId: historyId ?? startHistoryId };
}

/** The messages of the window, listed (users.messages.list with q=after:/before:); answers the mark for the next sync, or null. */
async function* listWindow(context: ReaderContext, read: MailboxRead): AsyncGenerator<EmailMessage, MailboxMark | null> {
  const { mailbox, label } = read;
  const { from, to } = context.window;
  // The history id before the listing: whatever arrives from now on is in the change feed after it.
  const profile = await call(() => mailbox.api.users.getProfile({ userId: mailbox.userId }, NO_RETRY), `read the profile of ${label}`, mailbox.fix);
  // Gmail's after:/before: take epoch seconds; the exact bounds are applied to internalDate (MailboxRead.message).
  const q = `after:${Math.floor(from.getTime() / 1000) - 1} before:${Math.ceil(to.getTime() / 1000) + 1}`;
  let pageToken: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const { data } = await call(
      () => mailbox.api.users.messages.list({ userId: mailbox.userId, q, maxResults: 500, pageToken, includeSpamTrash: false }, NO_RETRY),
      `list the messages of ${label}`,
      mailbox.fix,
    );
    for (const ref of data.messages ?? []) {
      if (!ref.id) continue;
      const email = await read.message(ref.id);
      if (email) yield email;
    }
    pageToken = data.nextPageToken ?? undefined;
    if (!pageToken) break;
  }
  const historyId = profile.data.historyId;
  if (!historyId) return null;
  // Messages sent after the window's end that Gmail had before the profile's history id (the read began after the
  // sync's end) are not in the next sync's change feed: listed here by id, read by the next sync. Should there be more
  // than a page (a backfill's range in the past), none is kept: the next sync lists the mailbox instead.
  const { data: after } = await call(
    () => mailbox.api.users.messages.list({ userId: mailbox.userId, q: `after:${Math.floor(to.getTime() / 1000) - 1}`, maxResults: 500, includeSpamTrash: false }, NO_RETRY),
    `list the messages of ${label}`,
    mailbox.fix,
  );
  if (after.nextPageToken) return null;
  for (const ref of after.messages ?? []) if (ref.id && !read.has(ref.id)) read.later.add(ref.id);
  return read.mark(historyId);
}

/** One mailbox: its change feed since the last sync's mark when Gmail still keeps it, else its window listed. */
async function* readMailbox(context: ReaderContext, mailbox: Mailbox, mark: MailboxMark | undefined): AsyncGenerator<EmailMessage, MailboxMark | null> {
  const read = new MailboxRead(context, mailbox);
  const changes = mark ? await addedSince(read, mark.historyId) : null;
  if (!changes) return yield* listWindow(context, read);
  // What arrived after the last window's end first (their history is before the mark), then what was added since.
  for (const id of [...(mark?.pending ?? []), ...changes.added]) {
    const email = await read.message(id);
    if (email) yield email;
  }
  return read.mark(changes.historyId);
}

export async function* readGmail(context: ReaderContext): AsyncGenerator<EmailMessage> {
  const individual = context.source.metadata.gmail_extraction_scope === "INDIVIDUAL" || context.credential.metadata.mode === "individual";
  const mailboxes = individual ? [individualMailbox(context)] : delegatedMailboxes(context);
  const marks = parseMarks(context.tracker.token);
  const next: MailboxMarks = {};
  for await (const mailbox of mailboxes) {
    const key = mailbox.address || mailbox.userId;
    const mark = yield* readMailbox(context, mailbox, marks[key]);
    if (mark) next[key] = mark;
    await mailbox.settle?.();
  }
  // Only the mailboxes in scope now keep a mark (one that left the group and comes back is listed). The sync engine
  // saves it only once every message read here landed at every destination.
  context.tracker.setToken(JSON.stringify(next));
}
