import type { OutlookGroup } from "../../../../contract/integrations/outlook.js";
import { connectionTestTimeoutMs } from "../../../lib/outbound.js";
import { ProviderError } from "../kit/config.js";
import type { OutlookConfig } from "./config.js";
import { GraphError, graphFix, OutlookGraph, type TokenPhase } from "./graph.js";

/**
 * Outlook's setup through Microsoft Graph: the admin consent is Teams' (teams/auth.ts adminConsentUrl, the app's
 * configured permissions: `.default`); then the tenant's mail-enabled groups, and the connection test (a token for the
 * tenant and one message of a mailbox in the scope). Every refusal is a ProviderError whose message is a sentence.
 */

/** A Graph session for a setup call: the connection test's timeout. */
export const setupGraph = (config: OutlookConfig, tenantId: string, phase: TokenPhase = "use") => new OutlookGraph(config, tenantId, { timeoutMs: connectionTestTimeoutMs(), phase });

/** A setup step's failure as a ProviderError: a Graph refusal in words, a network failure or timeout as one. */
async function step<T>(what: string, about: "mail" | "directory", work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (error instanceof GraphError) {
      const fix = graphFix(error, about);
      throw new ProviderError(`Microsoft Graph refused to ${what} (${error.status}: ${error.detail}).${fix ? ` ${fix}` : ""}`, error.status === 401 || error.status === 403);
    }
    const message = error instanceof Error ? error.message : String(error);
    if (/no answer within/.test(message)) throw new ProviderError(`Microsoft Graph did not answer in time to ${what}. Please try again.`, false, true);
    throw new ProviderError(`Microsoft Graph could not be reached to ${what}. Please try again.`);
  }
}

interface GraphGroup {
  id: string;
  displayName?: string | null;
  mail?: string | null;
}

/** GET /groups?$filter=mailEnabled eq true, every page: the groups whose members' mail a GROUP source reads. */
export async function listOutlookGroups(graph: OutlookGraph): Promise<OutlookGroup[]> {
  return step("list the organization's groups", "directory", async () => {
    const groups: OutlookGroup[] = [];
    const path = `/groups?$filter=${encodeURIComponent("mailEnabled eq true")}&$select=id,displayName,mail&$top=100`;
    for await (const g of graph.collection<GraphGroup>(path, () => undefined)) {
      groups.push({ id: g.id, name: g.displayName || g.mail || g.id, email: g.mail ?? "" });
    }
    return groups.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  });
}

export interface GraphUser {
  id: string;
  displayName?: string | null;
  mail?: string | null;
  "@odata.type"?: string;
}

/** Every user of the scope with a mailbox (an address): the organization's users, or the group's user members. */
export async function* mailboxesInScope(graph: OutlookGraph, scope: "ORG" | "GROUP", groupId: string, onMissingGroup: () => void): AsyncGenerator<GraphUser> {
  const path = scope === "GROUP" ? `/groups/${encodeURIComponent(groupId)}/members?$select=id,displayName,mail&$top=100` : "/users?$select=id,displayName,mail&$top=100";
  for await (const u of graph.collection<GraphUser>(path, onMissingGroup)) {
    if (scope === "GROUP" && u["@odata.type"] !== undefined && u["@odata.type"] !== "#microsoft.graph.user") continue;
    if (u.mail) yield u;
  }
}

/**
 * The connection test: a token for the tenant, then one message of the first mailbox of the scope
 * (GET /users/{id}/messages?$top=1): Graph answers 403 while the app lacks Mail.Read.
 */
export async function testOutlookConnection(graph: OutlookGraph, scope: "ORG" | "GROUP", groupId: string, groupName: string): Promise<string> {
  await graph.authenticate();
  let mailbox: GraphUser | null = null;
  await step(scope === "GROUP" ? "list the group's members" : "list the organization's users", "directory", async () => {
    const found = mailboxesInScope(graph, scope, groupId, () => {
      throw new ProviderError(`Microsoft 365 has no group ${groupName || groupId} in this organization. Please choose another group.`);
    });
    const first = await found.next();
    await found.return(undefined);
    mailbox = first.done ? null : first.value;
  });
  const user = mailbox as GraphUser | null;
  if (!user) throw new ProviderError(scope === "GROUP" ? "This group has no member with a mailbox: there is no mail to read." : "This organization has no user with a mailbox: there is no mail to read.");
  const address = user.mail!.toLowerCase();
  const messages = await step(`read the mailbox of ${address}`, "mail", () => graph.json(`/users/${encodeURIComponent(user.id)}/messages?$top=1&$select=id`));
  if (!messages) throw new ProviderError(`Microsoft Graph finds no mailbox for ${address}: the user needs an Exchange Online mailbox.`);
  return scope === "GROUP"
    ? `Connected: Tributary can read the mail of the group's members (checked with ${address}).`
    : `Connected: Tributary can read the organization's mail (checked with ${address}).`;
}
