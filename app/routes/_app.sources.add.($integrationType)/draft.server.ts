import { randomUUID } from "node:crypto";
import { createCookieSessionStorage } from "@remix-run/node";
import type { AppLoadContext } from "@remix-run/server-runtime";
import type { SetupInstructions, SourceIntegrationName } from "@contract/sources";
import { SOURCE_SETUPS, type SetupLists } from "~/integrations/sources";
import { sourceServer, VERIFIED_FIELDS } from "~/integrations/sources.server";
import type { UserInfo } from "@contract/auth";
import { needsVerification as verificationNeeded } from "@contract/integrations/sources";
import { env } from "~/services/env.server";
import { commitDraft } from "~/services/form.server";

/**
 * The source-creation draft (spec §4 "Source creation"): what the spec keeps in session storage, here in a signed,
 * httpOnly cookie session of its own, scoped to /sources, so it survives the redirect to Zoom/Microsoft/Google and
 * back without JavaScript. It holds no secret: tokens stay in the backend; the credential id is useless to anyone but
 * the signed-in owner. It is bound to the user, so another account in the same browser starts afresh.
 *
 * It belongs to one attempt: it is kept while the server itself sends the browser back to the form (after a button,
 * a choice or the provider's sign-in, `resume`), the form's own GET names it (`attempt`) or the page is drawn with
 * its action's answer. Opening the page in any other way (the list's Add button, a typed address, a reload) starts a
 * new attempt, clean.
 */
export interface SourceDraft {
  userId: string;
  /** This attempt's id: the form's own GETs (a type or authentication-type choice) carry it to continue it. */
  attempt: string;
  /** The next plain load of the form continues this attempt: set when the server sends the browser back to the form. */
  resume: boolean;
  name: string;
  description: string;
  /** The integration the credential belongs to (the "authenticated" one). */
  integration: SourceIntegrationName | null;
  /** The authentication mode it was made with, for a source with several (Gmail's gmail_auth_mode). */
  authMode: string | null;
  credentialId: string | null;
  authStatus: "authenticated" | "failed" | null;
  verification: "none" | "pending" | "success" | "failed";
  instructions: SetupInstructions | null;
  /** Post-authentication setup fields, as the form last sent them. */
  setup: Record<string, string>;
  /** The OAuth attempt in flight: its state, checked when the provider sends the browser back. */
  oauth: { integration: SourceIntegrationName; state: string } | null;
  /** A message to show once after a redirect (the OAuth return). */
  flash: string | null;
}

/** A new attempt's draft: nothing typed, nothing authenticated. */
export const emptyDraft = (userId: string): SourceDraft => ({
  userId,
  attempt: randomUUID(),
  resume: false,
  name: "",
  description: "",
  integration: null,
  authMode: null,
  credentialId: null,
  authStatus: null,
  verification: "none",
  instructions: null,
  setup: {},
  oauth: null,
  flash: null,
});

let storage: ReturnType<typeof createCookieSessionStorage<{ draft: SourceDraft }>> | undefined;
function draftStorage() {
  storage ??= createCookieSessionStorage<{ draft: SourceDraft }>({
    cookie: {
      name: "__tributary_source_draft",
      httpOnly: true,
      sameSite: "lax",
      path: "/sources",
      secure: env().secureCookies,
      secrets: [env().cookieSecret],
      maxAge: 60 * 60 * 24,
    },
  });
  return storage;
}

declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /**
     * The draft this request's action saved. Without JavaScript the page that shows an action's answer is drawn in
     * the same request, whose cookie is still the one from before the action: its loader continues from this one.
     */
    sourceDraft?: SourceDraft;
  }
}

/** This user's draft (`stored`: one was in the cookie, or this request's action saved one), and how to save or drop it. */
export async function readDraft(request: Request, user: UserInfo, context: AppLoadContext) {
  const session = await draftStorage().getSession(request.headers.get("cookie"));
  const saved = context.sourceDraft;
  const stored = saved ? { ...saved, resume: true } : session.get("draft");
  const mine = !!stored && stored.userId === user.id;
  const draft = mine ? { ...emptyDraft(user.id), ...stored } : emptyDraft(user.id);
  return {
    draft,
    stored: mine,
    commit: async (next: SourceDraft) => {
      session.set("draft", next);
      const cookie = await commitDraft(() => draftStorage().commitSession(session));
      context.sourceDraft = next;
      return cookie;
    },
    destroy: () => {
      context.sourceDraft = undefined;
      return draftStorage().destroySession(session);
    },
  };
}

/** Forgets the authentication (credential, status, instructions, verification, setup): spec §4. */
export function resetAuthentication(draft: SourceDraft): SourceDraft {
  return { ...draft, integration: null, authMode: null, credentialId: null, authStatus: null, verification: "none", instructions: null, setup: {}, oauth: null };
}

/** Whether the draft's credential is for this integration (and authentication mode, when it has modes). */
export function authenticatedFor(draft: SourceDraft, type: string, authMode: string | null): boolean {
  if (draft.authStatus !== "authenticated" || !draft.credentialId || draft.integration !== type) return false;
  return !sourceServer(type).authModes || draft.authMode === authMode;
}

/** Whether a create of this type (and authentication mode) needs a verification: the manifests' one rule. */
export function needsVerification(type: string, authMode: string | null): boolean {
  const field = sourceServer(type).authModes?.field;
  return verificationNeeded(type, field ? { [field]: authMode } : {});
}

// ---- the create form ----------------------------------------------------------------------------

/** The setup fields each integration's form sends (spec §3 "Source metadata by integration"). */
export const SETUP_FIELDS = Object.fromEntries(Object.entries(SOURCE_SETUPS).map(([name, setup]) => [name, setup.fields])) as Record<SourceIntegrationName, string[]>;

export const DEFAULT_SETUP = Object.fromEntries(Object.entries(SOURCE_SETUPS).map(([name, setup]) => [name, setup.defaults])) as Record<SourceIntegrationName, Record<string, string>>;

/** The setup fields of this integration among what a form sent (its parsed value). */
export function pickSetup(values: Record<string, unknown>, type: SourceIntegrationName): Record<string, string> {
  const setup: Record<string, string> = {};
  for (const field of SETUP_FIELDS[type]) {
    const value = values[field];
    if (typeof value === "string") setup[field] = value.slice(0, 1000);
  }
  return setup;
}

/**
 * The draft with the setup a form sent, when the draft's setup is this integration's (or nobody's yet). Spec §4:
 * editing what was verified resets the verification.
 */
export function withSetup(draft: SourceDraft, type: SourceIntegrationName, sent: Record<string, string>): SourceDraft {
  if (draft.integration && draft.integration !== type) return draft;
  const setup = { ...DEFAULT_SETUP[type], ...draft.setup, ...sent };
  const verifiedKey = (values: Record<string, string>) => VERIFIED_FIELDS.map((f) => values[f] ?? "").join("\u0000");
  const verification = draft.verification !== "none" && verifiedKey(setup) !== verifiedKey(draft.setup) ? "pending" : draft.verification;
  return { ...draft, setup, verification };
}

/**
 * The source_metadata for POST /sources/create, from the setup fields and the
 * lists the user chose from (names and e-mails come from there, not the form).
 */
export function buildMetadata(type: SourceIntegrationName, setup: Record<string, string>, lists: SetupLists, authMode: string | null): Record<string, unknown> {
  return SOURCE_SETUPS[type].metadata(setup, lists, authMode);
}
