import { redirect } from "@remix-run/node";
import {
  DEFAULT_GMAIL_AUTH_MODE,
  GMAIL_AUTH_MODES,
  integrationLabel,
  isSourceIntegration,
  SOURCE_INTEGRATIONS,
  SOURCE_MESSAGES,
  type CallbackResponse,
  type GoogleGroup,
  type SetupInstructions,
  type Source,
  type SourceIntegrationName,
  type TeamsTeam,
  type ZoomGroup,
} from "@contract/sources";
import type { UserInfo } from "@contract/auth";
import type { SetupLists } from "~/integrations/source-setup";
import { authenticatedFor, buildMetadata, DEFAULT_SETUP, needsVerification, readDraft, readSetup, resetAuthentication, VERIFIED_FIELDS, validateCreate, type SourceDraft } from "./source-draft.server";
import { backendFetch, backendMessage } from "./backend.server";
import { readForm } from "./form.server";
import { isRecordId, pageData } from "./records.server";

export { authenticatedFor, buildMetadata, DEFAULT_SETUP, needsVerification, readDraft, readSetup, resetAuthentication, SETUP_FIELDS, validateCreate, type SourceDraft } from "./source-draft.server";

// ---- backend calls ------------------------------------------------------------------------------

export interface IntegrationOption {
  name: string;
  label: string;
}

export async function fetchSourceIntegrations(request: Request): Promise<IntegrationOption[]> {
  try {
    const response = await backendFetch(request, "/integrations/sources");
    if (response.ok) {
      const body = (await response.json()) as { data?: { sources?: IntegrationOption[] } };
      if (Array.isArray(body.data?.sources)) return body.data.sources;
    } else await response.body?.cancel();
  } catch {
    // fall through to the built-in list: the select must still work.
  }
  return SOURCE_INTEGRATIONS.map(({ name, label }) => ({ name, label }));
}

export async function fetchGmailAuthOptions(request: Request): Promise<{ options: { mode: string; label: string }[]; error: string | null }> {
  try {
    const response = await backendFetch(request, "/externalauth/gmail/get_auth_options");
    if (response.ok) {
      const body = (await response.json()) as { options?: { mode: string; label: string }[] };
      if (Array.isArray(body.options)) return { options: body.options, error: null };
    } else await response.body?.cancel();
  } catch {
    // reported below
  }
  return { options: [], error: SOURCE_MESSAGES.gmailAuthOptionsFailed };
}

type Result<T> = { ok: true; value: T } | { ok: false; message: string; status: number };

async function call<T>(request: Request, path: string, init: RequestInit & { json?: unknown }, fallback: string): Promise<Result<T>> {
  let response: Response;
  try {
    response = await backendFetch(request, path, init);
  } catch {
    return { ok: false, message: fallback, status: 502 };
  }
  if (response.status === 401) {
    const url = new URL(request.url);
    throw redirect(`/?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (!response.ok) return { ok: false, message: await backendMessage(response, fallback), status: response.status };
  return { ok: true, value: (await response.json()) as T };
}

export const api = {
  datagenCallback: (request: Request) =>
    call<CallbackResponse>(request, "/externalauth/datagen/callback", { method: "POST", json: {} }, SOURCE_MESSAGES.datagenAuthFailed),
  authUrl: (request: Request, integration: string) =>
    call<{ auth_url: string; state: string }>(request, `/externalauth/${integration}/auth_url`, {}, `Could not start the ${integrationLabel(integration)} sign-in.`),
  callback: (request: Request, integration: string, body: Record<string, string>) =>
    call<CallbackResponse>(request, `/externalauth/${integration}/callback`, { method: "POST", json: body }, `${integrationLabel(integration)} authentication failed.`),
  zoomGroups: (request: Request, credentialId: string) =>
    call<{ groups: ZoomGroup[] }>(request, "/externalauth/zoom/get-groups", { method: "POST", json: { credential_id: credentialId } }, "Failed to load Zoom groups."),
  teams: (request: Request, credentialId: string) =>
    call<{ teams: TeamsTeam[] }>(request, "/externalauth/teams/get-teams", { method: "POST", json: { credential_id: credentialId } }, "Failed to load teams."),
  teamInstructions: (request: Request, body: { credential_id: string; scope: string; team_id?: string }) =>
    call<SetupInstructions>(request, "/externalauth/teams/get-team-setup-instructions", { method: "POST", json: body }, "Unable to load instructions."),
  verifySetup: (request: Request, integration: string, body: Record<string, unknown>) =>
    call<{ success: boolean; message: string }>(request, `/externalauth/${integration}/verify-setup`, { method: "POST", json: body }, SOURCE_MESSAGES.verificationFailed),
  gmailGroups: (request: Request, body: { credential_id: string; admin_email: string }) =>
    call<{ groups: GoogleGroup[] }>(request, "/externalauth/gmail/get-groups", { method: "POST", json: body }, "Failed to load Google groups."),
  gmailTest: (request: Request, body: { credential_id: string; admin_email?: string; group_ids?: string[] }) =>
    call<{ status: string; message: string }>(request, "/externalauth/gmail/test_connection", { method: "POST", json: body }, SOURCE_MESSAGES.verificationFailed),
  createSource: (request: Request, body: Record<string, unknown>) =>
    call<Source>(request, "/sources/create", { method: "POST", json: body }, "the server did not answer"),
  getSource: (request: Request, id: string) => call<Source>(request, `/sources/list-by-id/${encodeURIComponent(id)}`, {}, SOURCE_MESSAGES.fetchSourceFailed),
  updateSource: (request: Request, id: string, body: { name: string; description: string }) =>
    call<Source>(request, `/sources/update/${encodeURIComponent(id)}`, { method: "PUT", json: body }, "the server did not answer"),
  deleteSource: (request: Request, id: string) =>
    call<{ message: string }>(request, `/sources/delete/${encodeURIComponent(id)}`, { method: "DELETE" }, SOURCE_MESSAGES.deleteFailed),
};

/** A source for a detail/edit page, or the spec's message (with a 404 status when there is no such source of this user's). */
export async function loadSource(request: Request, id: string) {
  const result = isRecordId(id) ? await api.getSource(request, id) : ({ ok: false, status: 404 } as const);
  if (result.ok) return pageData<{ source: Source | null; error: string | null }>({ source: result.value, error: null }, false);
  const notFound = result.status === 404;
  return pageData<{ source: Source | null; error: string | null }>({ source: null, error: notFound ? SOURCE_MESSAGES.notFound : SOURCE_MESSAGES.fetchSourceFailed }, notFound);
}

// ---- loader and action of /sources/add and /sources/add/{integrationType} -------------------------

export interface CreatePageData {
  type: SourceIntegrationName | null;
  integrations: IntegrationOption[];
  name: string;
  description: string;
  gmail: { options: { mode: string; label: string }[]; error: string | null; mode: string | null } | null;
  authStatus: "authenticated" | "failed" | null;
  verification: SourceDraft["verification"];
  instructions: SetupInstructions | null;
  setup: Record<string, string>;
  lists: SetupLists;
  notice: string | null;
  errors: string[];
}

export interface CreateActionData {
  errors: string[];
  values: { name: string; description: string; setup: Record<string, string> };
  /** The draft's state after this action: a 400 answer is not followed by a loader revalidation. */
  verification: SourceDraft["verification"];
  authStatus: SourceDraft["authStatus"];
}

const isGmailMode = (mode: string | null | undefined): mode is string => !!mode && GMAIL_AUTH_MODES.some((m) => m.mode === mode);

/** Where the type select's GET (or its JS equivalent) lands: the type in the path, typed text carried along. */
export function typeUrl(type: string, params: URLSearchParams): string {
  const carry = new URLSearchParams();
  for (const key of ["name", "description", ...(type === "gmail" ? ["gmail_auth_mode"] : [])]) {
    const value = params.get(key);
    // An empty Gmail mode is a choice too ("Select an authentication type"); empty text is not worth carrying.
    if (value || (key === "gmail_auth_mode" && value !== null)) carry.set(key, (value ?? "").slice(0, 2000));
  }
  const query = carry.toString();
  return `/sources/add/${type}${query ? `?${query}` : ""}`;
}

async function loadLists(request: Request, type: SourceIntegrationName, draft: SourceDraft, setup: Record<string, string>) {
  const lists: CreatePageData["lists"] = {};
  const errors: string[] = [];
  if (!draft.credentialId) return { lists, errors };
  if (type === "zoom" && setup.zoom_extraction_scope === "GROUP") {
    const result = await api.zoomGroups(request, draft.credentialId);
    if (result.ok) lists.zoomGroups = result.value.groups;
    else errors.push(result.message);
  }
  if (type === "teams") {
    const result = await api.teams(request, draft.credentialId);
    if (result.ok) lists.teams = result.value.teams;
    else errors.push(result.message);
    const scope = setup.teams_extraction_scope === "TEAM" ? "TEAM" : "ORG";
    if (scope === "ORG" || setup.team_id) {
      const instructions = await api.teamInstructions(request, { credential_id: draft.credentialId, scope, ...(scope === "TEAM" ? { team_id: setup.team_id } : {}) });
      if (instructions.ok) lists.teamInstructions = instructions.value;
      else errors.push(instructions.message);
    }
  }
  if (type === "gmail" && setup.gmail_extraction_scope === "GROUP" && setup.admin_email) {
    const result = await api.gmailGroups(request, { credential_id: draft.credentialId, admin_email: setup.admin_email });
    if (result.ok) lists.googleGroups = result.value.groups;
    else errors.push(result.message);
  }
  return { lists, errors };
}

export async function sourceCreateLoader(request: Request, user: UserInfo, typeParam: string | null): Promise<Response> {
  const url = new URL(request.url);
  const { draft, commit } = await readDraft(request, user);
  const asked = url.searchParams.get("integration_type");
  // The type select's GET without JS (and with JS): put the chosen type in the path.
  if (asked && isSourceIntegration(asked) && asked !== typeParam) throw redirect(typeUrl(asked, url.searchParams));
  if (typeParam !== null && !isSourceIntegration(typeParam)) throw new Response("There is no such source type.", { status: 404 });
  const type = typeParam as SourceIntegrationName | null;

  // The provider sends the browser back here: post the code (or tenant + admin_consent) to the
  // callback, then drop it from the address.
  if (type && ["code", "error", "admin_consent"].some((k) => url.searchParams.has(k))) {
    let next: SourceDraft = { ...draft, oauth: null };
    const attempt = draft.oauth;
    const gmailMode = type === "gmail" ? "individual" : null;
    if (!attempt || attempt.integration !== type || attempt.state !== url.searchParams.get("state")) {
      next.flash = "This authorization could not be verified (it expired, was replayed or was started in another browser). Please authenticate again.";
    } else if (url.searchParams.get("error")) {
      next = { ...resetAuthentication(next), name: draft.name, description: draft.description, authStatus: "failed" };
      next.flash = `${integrationLabel(type)} authentication failed: ${url.searchParams.get("error_description") ?? url.searchParams.get("error")}.`;
    } else {
      const body: Record<string, string> = url.searchParams.has("admin_consent")
        ? { tenant: url.searchParams.get("tenant") ?? "", admin_consent: url.searchParams.get("admin_consent") ?? "" }
        : { code: url.searchParams.get("code") ?? "" };
      const result = await api.callback(request, type, body);
      if (result.ok) {
        next = {
          ...next,
          integration: type,
          gmailAuthMode: gmailMode,
          credentialId: result.value.credential_id,
          authStatus: "authenticated",
          instructions: result.value.instructions,
          verification: needsVerification(type, gmailMode) && !result.value.setup_verified ? "pending" : "none",
          setup: { ...DEFAULT_SETUP[type], ...(draft.integration === type ? draft.setup : {}) },
        };
      } else {
        next = { ...next, authStatus: "failed", credentialId: null, flash: result.message };
      }
    }
    const back = type === "gmail" && gmailMode ? `/sources/add/gmail?gmail_auth_mode=${gmailMode}` : `/sources/add/${type}`;
    throw redirect(back, { headers: { "set-cookie": await commit(next) } });
  }

  let next = draft;
  let notice: string | null = null;
  const gmail = type === "gmail" ? { ...(await fetchGmailAuthOptions(request)), mode: null as string | null } : null;
  if (gmail) {
    const fromUrl = url.searchParams.get("gmail_auth_mode");
    gmail.mode = fromUrl !== null ? (isGmailMode(fromUrl) ? fromUrl : null) : draft.integration === "gmail" && draft.gmailAuthMode ? draft.gmailAuthMode : DEFAULT_GMAIL_AUTH_MODE;
  }
  if (type && draft.credentialId && draft.integration && draft.integration !== type) {
    next = resetAuthentication(draft);
    notice = SOURCE_MESSAGES.integrationChanged;
  } else if (type === "gmail" && draft.integration === "gmail" && draft.credentialId && draft.gmailAuthMode !== gmail?.mode) {
    next = resetAuthentication(draft);
  }
  const errors: string[] = [];
  if (next.flash) {
    errors.push(next.flash);
    next = { ...next, flash: null };
  }
  const authenticated = type ? authenticatedFor(next, type, gmail?.mode ?? null) : false;
  const setup = type ? { ...DEFAULT_SETUP[type], ...(next.integration === type || !next.integration ? next.setup : {}) } : {};
  const loaded = type && authenticated ? await loadLists(request, type, next, setup) : { lists: {}, errors: [] };
  errors.push(...loaded.errors);
  if (gmail?.error) errors.push(gmail.error);

  const data: CreatePageData = {
    type,
    integrations: await fetchSourceIntegrations(request),
    name: url.searchParams.get("name") ?? next.name,
    description: url.searchParams.get("description") ?? next.description,
    gmail,
    authStatus: type && next.integration === type ? next.authStatus : next.authStatus === "failed" && !next.integration ? "failed" : null,
    verification: authenticated ? next.verification : "none",
    instructions: authenticated ? next.instructions : null,
    setup,
    lists: loaded.lists,
    notice,
    errors,
  };
  const headers = new Headers({ "cache-control": "no-store" });
  if (next !== draft) headers.append("set-cookie", await commit(next));
  return Response.json(data, { headers });
}

export async function sourceCreateAction(request: Request, user: UserInfo, typeParam: string | null): Promise<Response> {
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const { draft, commit, destroy } = await readDraft(request, user);
  const type = isSourceIntegration(typeParam) ? typeParam : null;
  const text = (key: string, max: number) => String(form.get(key) ?? "").slice(0, max);
  const gmailAuthMode = type === "gmail" ? (isGmailMode(text("gmail_auth_mode", 100)) ? text("gmail_auth_mode", 100) : null) : null;
  let next: SourceDraft = { ...draft, name: text("name", 2000), description: text("description", 5000), flash: null };
  if (type && (next.integration === type || !next.integration)) next.setup = { ...DEFAULT_SETUP[type], ...next.setup, ...readSetup(form, type) };
  // Spec §4: editing what was verified resets the verification.
  const verifiedKey = (setup: Record<string, string>) => VERIFIED_FIELDS.map((f) => setup[f] ?? "").join("\u0000");
  if (next.verification !== "none" && verifiedKey(next.setup) !== verifiedKey(draft.setup)) next.verification = "pending";
  const here = type === "gmail" && gmailAuthMode ? `/sources/add/gmail?gmail_auth_mode=${gmailAuthMode}` : type ? `/sources/add/${type}` : "/sources/add";
  const values = { name: next.name, description: next.description, setup: next.setup };
  const fail = async (message: string, status = 400) =>
    Response.json({ errors: [message], values, verification: next.verification, authStatus: !next.integration || next.integration === type ? next.authStatus : null } satisfies CreateActionData, { status, headers: { "set-cookie": await commit(next) } });
  const back = async () => redirect(here, { headers: { "set-cookie": await commit(next) } });

  if (intent === "authenticate") {
    if (!type) return fail(SOURCE_MESSAGES.integrationBeforeAuth);
    if (type === "gmail" && !gmailAuthMode) return fail(SOURCE_MESSAGES.gmailAuthTypeRequired);
    const keep = { name: next.name, description: next.description, setup: next.integration === type ? next.setup : { ...DEFAULT_SETUP[type], ...readSetup(form, type) } };
    next = { ...resetAuthentication(next), ...keep };
    const redirectFlow = type === "zoom" || type === "teams" || (type === "gmail" && gmailAuthMode === "individual");
    if (redirectFlow) {
      const result = await api.authUrl(request, type);
      if (!result.ok) {
        next.authStatus = "failed";
        return fail(result.message);
      }
      next.oauth = { integration: type, state: result.value.state };
      return redirect(result.value.auth_url, { headers: { "set-cookie": await commit(next) } });
    }
    const result = type === "datagen" ? await api.datagenCallback(request) : await api.callback(request, type, { mode: gmailAuthMode ?? "" });
    if (!result.ok) {
      next.authStatus = "failed";
      return fail(type === "datagen" ? SOURCE_MESSAGES.datagenAuthFailed : result.message);
    }
    next = {
      ...next,
      integration: type,
      gmailAuthMode,
      credentialId: result.value.credential_id,
      authStatus: "authenticated",
      instructions: result.value.instructions,
      verification: needsVerification(type, gmailAuthMode) && !result.value.setup_verified ? "pending" : "none",
    };
    return back();
  }

  if (intent === "setup") return back();

  const authenticated = type ? authenticatedFor(next, type, gmailAuthMode) : false;

  if (intent === "verify") {
    if (!type || !authenticated || !next.credentialId) return fail(SOURCE_MESSAGES.mustAuthenticate);
    const setup = next.setup;
    const result =
      type === "gmail"
        ? await api.gmailTest(request, { credential_id: next.credentialId, ...(gmailAuthMode === "individual" ? {} : { admin_email: setup.admin_email ?? "" }), ...(setup.gmail_extraction_scope === "GROUP" && setup.gmail_group_id ? { group_ids: [setup.gmail_group_id] } : {}) })
        : await api.verifySetup(request, type, {
            integration_name: type,
            credential_id: next.credentialId,
            scope: setup.teams_extraction_scope ?? "ORG",
            ...(setup.teams_extraction_scope === "TEAM" && setup.team_id ? { team_id: setup.team_id } : {}),
          });
    const success = result.ok && ("success" in result.value ? result.value.success : result.value.status === "success");
    next.verification = success ? "success" : "failed";
    if (!success) return fail(result.ok ? `${SOURCE_MESSAGES.verificationFailed} ${result.value.message}` : `${SOURCE_MESSAGES.verificationFailed} ${result.message}`);
    return back();
  }

  if (intent === "create") {
    const lists = type && authenticated ? (await loadLists(request, type, next, next.setup)).lists : {};
    const metadata = type ? buildMetadata(type, next.setup, lists, gmailAuthMode) : null;
    const problem = validateCreate({
      name: next.name,
      type,
      gmailAuthMode,
      authenticated,
      verified: next.verification === "success",
      metadata,
    });
    if (problem) return fail(problem);
    if (type === "teams" && lists.teams?.find((t) => t.team_id === metadata?.team_id)?.already_configured) return fail(SOURCE_MESSAGES.teamAlreadyConnected);
    const result = await api.createSource(request, {
      name: next.name,
      description: next.description,
      credentialId: next.credentialId,
      integration_name: type,
      integration_label: integrationLabel(type!),
      source_metadata: metadata,
    });
    if (!result.ok) return fail(SOURCE_MESSAGES.createFailed(result.message), result.status >= 500 ? 502 : 400);
    return redirect("/sources", { headers: { "set-cookie": await destroy() } });
  }

  return fail("Unknown action. Please use the form's buttons.");
}
