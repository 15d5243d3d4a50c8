import { providerTimeoutMs } from "../../../lib/outbound.js";
import { ProviderError } from "../kit/config.js";
import { inWindow, PermanentReadError } from "../kit/index.js";
import { htmlToText } from "../gmail/message.js";
import type { EmailMessage } from "../gmail/records.js";
import type { ReaderContext } from "../plugin.js";
import { outlookConfig } from "./config.js";
import { mailboxesInScope, type GraphUser } from "./auth.js";
import { GraphError, graphFix, OutlookGraph } from "./graph.js";

/**
 * Outlook mail through Microsoft Graph with the app-only token of the tenant that consented: the mailboxes in scope
 * (GET /users for the organization, GET /groups/{id}/members for a group: users with an address), then per mailbox
 * GET /users/{id}/messages with $filter on receivedDateTime (the window), $select and $top, page by page through
 * @odata.nextLink. Drafts and the Junk Email and Deleted Items folders are left out, as Gmail's reader leaves out
 * drafts' equivalents, spam and trash. Each message becomes the EmailMessage Gmail's plug-in emits (gmail/records.ts),
 * its HTML body made text by Gmail's htmlToText, so the rows land in `email_messages` with the same columns.
 *
 * Like Gmail's, a message is one mailbox's copy: the same e-mail in two mailboxes of the scope is two rows (each
 * copy has its own id), as Gmail's reader does. sent_at is receivedDateTime, the time the mailbox got it (Gmail's
 * internalDate), which is also the time the window selects by.
 */

interface Recipient {
  emailAddress?: { name?: string | null; address?: string | null } | null;
}

export interface GraphMessage {
  id: string;
  conversationId?: string | null;
  internetMessageId?: string | null;
  subject?: string | null;
  receivedDateTime?: string | null;
  sentDateTime?: string | null;
  bodyPreview?: string | null;
  body?: { contentType?: string | null; content?: string | null } | null;
  from?: Recipient | null;
  sender?: Recipient | null;
  toRecipients?: Recipient[] | null;
  ccRecipients?: Recipient[] | null;
  categories?: string[] | null;
  parentFolderId?: string | null;
  isDraft?: boolean | null;
}

const SELECT = ["id", "conversationId", "internetMessageId", "subject", "receivedDateTime", "sentDateTime", "bodyPreview", "body", "from", "sender", "toRecipients", "ccRecipients", "categories", "parentFolderId", "isDraft"];

/** Folders whose messages are not read (Gmail's spam and trash), by their well-known names. */
const LEFT_OUT_FOLDERS = ["junkemail", "deleteditems"];

/** A display name needing quotes in an address header (RFC 5322 specials). */
const SPECIALS = /[()<>[\]:;@\\,."]/;

/** An address as a header writes it: `Name <address>`, the name quoted when it must be; the bare address without one. */
export function formatAddress(r: Recipient | null | undefined): string {
  const address = r?.emailAddress?.address?.trim() ?? "";
  const name = r?.emailAddress?.name?.trim() ?? "";
  if (!address) return name;
  if (!name || name.toLowerCase() === address.toLowerCase()) return address;
  return `${SPECIALS.test(name) ? `"${name.replace(/(["\\])/g, "\\$1")}"` : name} <${address}>`;
}

/** A Graph message as the EmailMessage of the `email_messages` stream. */
export function toEmailMessage(m: GraphMessage, mailbox: string): EmailMessage {
  const content = m.body?.content ?? "";
  const body = (m.body?.contentType ?? "").toLowerCase() === "html" ? htmlToText(content) : content.replace(/\r\n/g, "\n").trim();
  return {
    id: m.id,
    thread_id: m.conversationId ?? "",
    from: formatAddress(m.from ?? m.sender),
    to: (m.toRecipients ?? []).map(formatAddress).filter(Boolean),
    cc: (m.ccRecipients ?? []).map(formatAddress).filter(Boolean),
    subject: m.subject ?? "",
    sent_at: new Date(m.receivedDateTime ?? m.sentDateTime ?? NaN),
    snippet: (m.bodyPreview ?? "").trim(),
    body_text: body,
    labels: m.categories ?? [],
    mailbox,
  };
}

/** A read's failure: a Graph refusal is permanent and says what to fix; 5xx, 429s and the network are retried. */
function readFailure(error: unknown, what: string, about: "mail" | "directory"): Error {
  if (error instanceof PermanentReadError) return error;
  if (error instanceof ProviderError) {
    if (error.unauthorized) return new PermanentReadError(error.message);
    return new Error(`${error.message.replace(/\.$/, "").replace(/ Please try again$/, "")}; the sync will try again.`);
  }
  if (error instanceof GraphError) {
    if (error.status >= 500 || error.status === 429) return new Error(`Microsoft Graph answered ${error.status} while trying to ${what} (${error.detail}); the sync will try again.`);
    const fix = graphFix(error, about);
    return new PermanentReadError(`Microsoft Graph refused to ${what} (${error.status}: ${error.detail}).${fix ? ` ${fix}` : ""}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function guarded<T>(what: string, about: "mail" | "directory", work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw readFailure(error, what, about);
  }
}

/** Every step of an async iteration guarded alike. */
async function* guardedAll<T>(what: string, about: "mail" | "directory", items: AsyncGenerator<T>): AsyncGenerator<T> {
  for (;;) {
    const next = await guarded(what, about, () => items.next());
    if (next.done) return;
    yield next.value;
  }
}

/** The scope's mailboxes, each once, in address order. */
async function mailboxes(graph: OutlookGraph, metadata: Record<string, unknown>): Promise<{ id: string; address: string }[]> {
  const group = metadata.outlook_extraction_scope === "GROUP";
  const groupId = String(metadata.outlook_group_id ?? "");
  const groupName = String(metadata.outlook_group_name || groupId);
  if (group && !groupId) throw new PermanentReadError("The Outlook source names no group. Create the source again and choose a group.");
  const users = mailboxesInScope(graph, group ? "GROUP" : "ORG", groupId, () => {
    throw new PermanentReadError(`The Microsoft 365 group ${groupName} no longer exists. Create the Outlook source again with another group.`);
  });
  const byId = new Map<string, string>();
  for await (const u of guardedAll<GraphUser>(group ? `list the members of the group ${groupName}` : "list the organization's users", "directory", users)) {
    byId.set(u.id, u.mail!.toLowerCase());
  }
  return [...byId].map(([id, address]) => ({ id, address })).sort((a, b) => a.address.localeCompare(b.address) || a.id.localeCompare(b.id));
}

/** The ids of the mailbox's folders that are left out (a mailbox without one simply has none). */
async function leftOutFolders(graph: OutlookGraph, user: { id: string; address: string }): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const name of LEFT_OUT_FOLDERS) {
    const folder = await guarded(`read the folders of the mailbox ${user.address}`, "mail", () => graph.json<{ id?: string }>(`/users/${encodeURIComponent(user.id)}/mailFolders/${name}?$select=id`));
    if (folder?.id) ids.add(folder.id);
  }
  return ids;
}

export async function* readOutlook(context: ReaderContext): AsyncGenerator<EmailMessage> {
  const tenantId = String(context.credential.metadata.tenant_id ?? "");
  if (!tenantId) throw new PermanentReadError("The Outlook credential names no tenant. Create the Outlook source again to grant admin consent.");
  const graph = new OutlookGraph(outlookConfig(), tenantId, { timeoutMs: providerTimeoutMs(), phase: "use" });
  const { window } = context;
  const filter = `receivedDateTime ge ${window.from.toISOString()} and receivedDateTime lt ${window.to.toISOString()}`;
  for (const user of await mailboxes(graph, context.source.metadata)) {
    const folders = await leftOutFolders(graph, user);
    const seen = new Set<string>();
    const path = `/users/${encodeURIComponent(user.id)}/messages?$filter=${encodeURIComponent(filter)}&$select=${SELECT.join(",")}&$top=100`;
    // A mailbox gone since it was listed (404) has nothing to read.
    const messages = graph.collection<GraphMessage>(path, () => undefined);
    for await (const m of guardedAll(`list the messages of the mailbox ${user.address}`, "mail", messages)) {
      if (!m.id || seen.has(m.id) || m.isDraft || (m.parentFolderId && folders.has(m.parentFolderId))) continue;
      seen.add(m.id);
      const email = toEmailMessage(m, user.address);
      if (Number.isNaN(email.sent_at.getTime()) || !inWindow(email.sent_at, window)) continue;
      yield email;
    }
  }
}
