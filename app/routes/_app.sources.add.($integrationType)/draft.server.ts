import { createCookieSessionStorage } from "@remix-run/node";
import { isSourceIntegration, METADATA_SCHEMAS, SOURCE_MESSAGES, sourceNameSchema, type SetupInstructions, type SourceIntegrationName } from "@contract/sources";
import { SOURCE_SETUPS, type SetupLists } from "~/integrations/sources";
import { isAuthMode, sourceServer, VERIFIED_FIELDS } from "~/integrations/sources.server";
import type { UserInfo } from "@contract/auth";
import { needsVerification as verificationNeeded } from "@contract/integrations/sources";
import { env } from "./env.server";
import { commitDraft } from "./form.server";

/**
 * The source-creation draft (spec §4 "Source creation"): what the spec keeps in
 * session storage, here in a signed, httpOnly cookie session of its own, scoped
 * to /sources, so it survives the redirect to Zoom/Microsoft/Google and back
 * without JavaScript. It holds no secret: tokens stay in the backend; the
 * credential id is useless to anyone but the signed-in owner. It is bound to the
 * user, so another account in the same browser starts afresh.
 */
export interface SourceDraft {
  userId: string;
  name: string;
  description: string;
  /** The integration the credential belongs to (the "authenticated" one). */
  integration: SourceIntegrationName | null;
  /** The authentication mode it was made with, for a source with several (Gmail's gmail_auth_mode). */
  gmailAuthMode: string | null;
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

const emptyDraft = (userId: string): SourceDraft => ({
  userId,
  name: "",
  description: "",
  integration: null,
  gmailAuthMode: null,
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

export async function readDraft(request: Request, user: UserInfo) {
  const session = await draftStorage().getSession(request.headers.get("cookie"));
  const stored = session.get("draft");
  const draft = stored && stored.userId === user.id ? { ...emptyDraft(user.id), ...stored } : emptyDraft(user.id);
  return {
    draft,
    commit: async (next: SourceDraft) => {
      session.set("draft", next);
      return commitDraft(() => draftStorage().commitSession(session));
    },
    destroy: () => draftStorage().destroySession(session),
  };
}

/** Forgets the authentication (credential, status, instructions, verification, setup): spec §4. */
export function resetAuthentication(draft: SourceDraft): SourceDraft {
  return { ...draft, integration: null, gmailAuthMode: null, credentialId: null, authStatus: null, verification: "none", instructions: null, setup: {}, oauth: null };
}

/** Whether the draft's credential is for this integration (and authentication mode, when it has modes). */
export function authenticatedFor(draft: SourceDraft, type: string, gmailAuthMode: string | null): boolean {
  if (draft.authStatus !== "authenticated" || !draft.credentialId || draft.integration !== type) return false;
  return !sourceServer(type).authModes || draft.gmailAuthMode === gmailAuthMode;
}

/** Whether a create of this type (and authentication mode) needs a verification: the manifests' one rule. */
export function needsVerification(type: string, gmailAuthMode: string | null): boolean {
  const field = sourceServer(type).authModes?.field;
  return verificationNeeded(type, field ? { [field]: gmailAuthMode } : {});
}


// ---- the create form ----------------------------------------------------------------------------

/** The setup fields each integration's form sends (spec §3 "Source metadata by integration"). */
export const SETUP_FIELDS = Object.fromEntries(Object.entries(SOURCE_SETUPS).map(([name, setup]) => [name, setup.fields])) as Record<SourceIntegrationName, string[]>;

export function readSetup(form: FormData, type: SourceIntegrationName): Record<string, string> {
  const setup: Record<string, string> = {};
  for (const field of SETUP_FIELDS[type]) {
    const value = form.get(field);
    if (typeof value === "string") setup[field] = value.slice(0, 1000);
  }
  return setup;
}

/** The setup fields a verification covers (each plug-in's verifiedFields). */
export { VERIFIED_FIELDS };

export const DEFAULT_SETUP = Object.fromEntries(Object.entries(SOURCE_SETUPS).map(([name, setup]) => [name, setup.defaults])) as Record<SourceIntegrationName, Record<string, string>>;

/**
 * The source_metadata for POST /sources/create, from the setup fields and the
 * lists the user chose from (names and e-mails come from there, not the form).
 */
export function buildMetadata(type: SourceIntegrationName, setup: Record<string, string>, lists: SetupLists, gmailAuthMode: string | null): Record<string, unknown> {
  return SOURCE_SETUPS[type].metadata(setup, lists, gmailAuthMode);
}

/**
 * The spec §5 checks in the spec's order, the first failing one's message (the
 * banner shows one message at a time, as the original does).
 */
export function validateCreate(input: {
  name: string;
  type: string | null;
  gmailAuthMode: string | null;
  authenticated: boolean;
  verified: boolean;
  metadata: Record<string, unknown> | null;
}): string | null {
  if (!sourceNameSchema.safeParse(input.name).success) return sourceNameSchema.safeParse(input.name).error!.issues[0]!.message;
  if (!isSourceIntegration(input.type)) return SOURCE_MESSAGES.integrationRequired;
  const { authModes } = sourceServer(input.type);
  if (authModes && !isAuthMode(authModes, input.gmailAuthMode)) return authModes.required;
  if (!input.authenticated) return SOURCE_MESSAGES.mustAuthenticate;
  if (needsVerification(input.type, input.gmailAuthMode) && !input.verified) return SOURCE_MESSAGES.mustVerify;
  const parsed = METADATA_SCHEMAS[input.type].safeParse(input.metadata ?? {});
  if (!parsed.success) return parsed.error.issues[0]!.message;
  return null;
}

