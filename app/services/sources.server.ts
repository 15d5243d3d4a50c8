import { redirect } from "@remix-run/node";
import { integrationLabel, isSourceIntegration, SOURCE_INTEGRATIONS, SOURCE_MESSAGES, type CallbackResponse, type SetupInstructions, type Source, type SourceIntegrationName } from "@contract/sources";
import type { UserInfo } from "@contract/auth";
import type { SetupLists } from "~/integrations/sources";
import { isAuthMode, sourceServer, type AuthOption, type VerifyAnswer } from "~/integrations/sources.server";
import { authenticatedFor, buildMetadata, DEFAULT_SETUP, needsVerification, readDraft, readSetup, resetAuthentication, VERIFIED_FIELDS, validateCreate, type SourceDraft } from "./source-draft.server";
import { backendFetch } from "./http.server";
import { callBackend } from "./backend.server";
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

/** The backend calls every source makes; a source's own calls live in app/integrations/<name>.server.ts. */
export const api = {
  authUrl: (request: Request, integration: string) =>
    callBackend<{ auth_url: string; state: string }>(request, `/externalauth/${integration}/auth_url`, {}, `Could not start the ${integrationLabel(integration)} sign-in.`),
  callback: (request: Request, integration: string, body: Record<string, string>, fallback = `${integrationLabel(integration)} authentication failed.`) =>
    callBackend<CallbackResponse>(request, `/externalauth/${integration}/callback`, { method: "POST", json: body }, fallback),
  verifySetup: (request: Request, integration: string, body: Record<string, unknown>) =>
    callBackend<VerifyAnswer>(request, `/externalauth/${integration}/verify-setup`, { method: "POST", json: body }, SOURCE_MESSAGES.verificationFailed),
  createSource: (request: Request, body: Record<string, unknown>) =>
    callBackend<Source>(request, "/sources/create", { method: "POST", json: body }, "the server did not answer"),
  getSource: (request: Request, id: string) => callBackend<Source>(request, `/sources/list-by-id/${encodeURIComponent(id)}`, {}, SOURCE_MESSAGES.fetchSourceFailed),
  updateSource: (request: Request, id: string, body: { name: string; description: string }) =>
    callBackend<Source>(request, `/sources/update/${encodeURIComponent(id)}`, { method: "PUT", json: body }, "the server did not answer"),
  deleteSource: (request: Request, id: string) =>
    callBackend<{ message: string }>(request, `/sources/delete/${encodeURIComponent(id)}`, { method: "DELETE" }, SOURCE_MESSAGES.deleteFailed),
};

/** A source for a detail/edit page, or the spec's message (with a 404 status when there is no such source of this user's). */
export async function loadSource(request: Request, id: string) {
  const result = isRecordId(id) ? await api.getSource(request, id) : ({ ok: false, status: 404 } as const);
  if (result.ok) return pageData<{ source: Source | null; error: string | null }>({ source: result.data, error: null }, false);
  const notFound = result.status === 404;
  return pageData<{ source: Source | null; error: string | null }>({ source: null, error: notFound ? SOURCE_MESSAGES.notFound : SOURCE_MESSAGES.fetchSourceFailed }, notFound);
}

// ---- loader and action of /sources/add and /sources/add/{integrationType} -------------------------

export interface CreatePageData {
  type: SourceIntegrationName | null;
  integrations: IntegrationOption[];
  name: string;
  description: string;
  /** The authentication type select of a source with several modes (Gmail): its field, options and choice. */
  authMode: { field: string; options: AuthOption[]; error: string | null; mode: string | null } | null;
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

/** Where the type select's GET (or its JS equivalent) lands: the type in the path, typed text carried along. */
export function typeUrl(type: string, params: URLSearchParams): string {
  const carry = new URLSearchParams();
  const modeField = sourceServer(type).authModes?.field;
  for (const key of ["name", "description", ...(modeField ? [modeField] : [])]) {
    const value = params.get(key);
    // An empty mode is a choice too ("Select an authentication type"); empty text is not worth carrying.
    if (value || (key === modeField && value !== null)) carry.set(key, (value ?? "").slice(0, 2000));
  }
  const query = carry.toString();
  return `/sources/add/${type}${query ? `?${query}` : ""}`;
}

/** The create page of a type, with its authentication mode when it has modes and one is chosen. */
function addUrl(type: SourceIntegrationName, mode: string | null): string {
  const field = sourceServer(type).authModes?.field;
  return field && mode ? `/sources/add/${type}?${field}=${mode}` : `/sources/add/${type}`;
}

async function loadLists(request: Request, type: SourceIntegrationName, draft: SourceDraft, setup: Record<string, string>): Promise<{ lists: SetupLists; errors: string[] }> {
  const load = sourceServer(type).loadLists;
  if (!draft.credentialId || !load) return { lists: {}, errors: [] };
  return load(request, draft.credentialId, setup);
}

export async function sourceCreateLoader(request: Request, user: UserInfo, typeParam: string | null): Promise<Response> {
  const url = new URL(request.url);
  const { draft, commit } = await readDraft(request, user);
  const asked = url.searchParams.get("integration_type");
  // The type select's GET without JS (and with JS): put the chosen type in the path.
  if (asked && isSourceIntegration(asked) && asked !== typeParam) throw redirect(typeUrl(asked, url.searchParams));
  if (typeParam !== null && !isSourceIntegration(typeParam)) throw new Response("There is no such source type.", { status: 404 });
  const type = typeParam as SourceIntegrationName | null;
  const server = sourceServer(type);

  // The provider sends the browser back here: post the code (or tenant + admin_consent) to the
  // callback, then drop it from the address.
  if (type && ["code", "error", "admin_consent"].some((k) => url.searchParams.has(k))) {
    let next: SourceDraft = { ...draft, oauth: null };
    const attempt = draft.oauth;
    const returnMode = server.authModes ? (server.redirectMode ?? null) : null;
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
          gmailAuthMode: returnMode,
          credentialId: result.data.credential_id,
          authStatus: "authenticated",
          instructions: result.data.instructions,
          verification: needsVerification(type, returnMode) && !result.data.setup_verified ? "pending" : "none",
          setup: { ...DEFAULT_SETUP[type], ...(draft.integration === type ? draft.setup : {}) },
        };
      } else {
        next = { ...next, authStatus: "failed", credentialId: null, flash: result.message };
      }
    }
    throw redirect(addUrl(type, returnMode), { headers: { "set-cookie": await commit(next) } });
  }

  let next = draft;
  let notice: string | null = null;
  const modes = type ? server.authModes : undefined;
  const authMode: CreatePageData["authMode"] = modes ? { field: modes.field, ...(await modes.options(request)), mode: null } : null;
  if (modes && authMode) {
    const fromUrl = url.searchParams.get(modes.field);
    authMode.mode = fromUrl !== null ? (isAuthMode(modes, fromUrl) ? fromUrl : null) : draft.integration === type && draft.gmailAuthMode ? draft.gmailAuthMode : modes.defaultMode;
  }
  if (type && draft.credentialId && draft.integration && draft.integration !== type) {
    next = resetAuthentication(draft);
    notice = SOURCE_MESSAGES.integrationChanged;
  } else if (authMode && draft.integration === type && draft.credentialId && draft.gmailAuthMode !== authMode.mode) {
    next = resetAuthentication(draft);
  }
  const errors: string[] = [];
  if (next.flash) {
    errors.push(next.flash);
    next = { ...next, flash: null };
  }
  const authenticated = type ? authenticatedFor(next, type, authMode?.mode ?? null) : false;
  const setup = type ? { ...DEFAULT_SETUP[type], ...(next.integration === type || !next.integration ? next.setup : {}) } : {};
  const loaded = type && authenticated ? await loadLists(request, type, next, setup) : { lists: {}, errors: [] };
  errors.push(...loaded.errors);
  if (authMode?.error) errors.push(authMode.error);

  const data: CreatePageData = {
    type,
    integrations: await fetchSourceIntegrations(request),
    name: url.searchParams.get("name") ?? next.name,
    description: url.searchParams.get("description") ?? next.description,
    authMode,
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
  const server = sourceServer(type);
  const modes = type ? server.authModes : undefined;
  const authMode = modes && isAuthMode(modes, text(modes.field, 100)) ? text(modes.field, 100) : null;
  let next: SourceDraft = { ...draft, name: text("name", 2000), description: text("description", 5000), flash: null };
  if (type && (next.integration === type || !next.integration)) next.setup = { ...DEFAULT_SETUP[type], ...next.setup, ...readSetup(form, type) };
  // Spec §4: editing what was verified resets the verification.
  const verifiedKey = (setup: Record<string, string>) => VERIFIED_FIELDS.map((f) => setup[f] ?? "").join("\u0000");
  if (next.verification !== "none" && verifiedKey(next.setup) !== verifiedKey(draft.setup)) next.verification = "pending";
  const here = type ? addUrl(type, authMode) : "/sources/add";
  const values = { name: next.name, description: next.description, setup: next.setup };
  const fail = async (message: string, status = 400) =>
    Response.json({ errors: [message], values, verification: next.verification, authStatus: !next.integration || next.integration === type ? next.authStatus : null } satisfies CreateActionData, { status, headers: { "set-cookie": await commit(next) } });
  const back = async () => redirect(here, { headers: { "set-cookie": await commit(next) } });

  if (intent === "authenticate") {
    if (!type) return fail(SOURCE_MESSAGES.integrationBeforeAuth);
    if (modes && !authMode) return fail(modes.required);
    const keep = { name: next.name, description: next.description, setup: next.integration === type ? next.setup : { ...DEFAULT_SETUP[type], ...readSetup(form, type) } };
    next = { ...resetAuthentication(next), ...keep };
    const flow = server.authFlow(authMode);
    if (flow.redirect) {
      const result = await api.authUrl(request, type);
      if (!result.ok) {
        next.authStatus = "failed";
        return fail(result.message);
      }
      next.oauth = { integration: type, state: result.data.state };
      return redirect(result.data.auth_url, { headers: { "set-cookie": await commit(next) } });
    }
    const result = await api.callback(request, type, flow.body, flow.failure);
    if (!result.ok) {
      next.authStatus = "failed";
      return fail(flow.failure ?? result.message);
    }
    next = {
      ...next,
      integration: type,
      gmailAuthMode: authMode,
      credentialId: result.data.credential_id,
      authStatus: "authenticated",
      instructions: result.data.instructions,
      verification: needsVerification(type, authMode) && !result.data.setup_verified ? "pending" : "none",
    };
    return back();
  }

  if (intent === "setup") return back();

  const authenticated = type ? authenticatedFor(next, type, authMode) : false;

  if (intent === "verify") {
    if (!type || !authenticated || !next.credentialId) return fail(SOURCE_MESSAGES.mustAuthenticate);
    const result = server.verify
      ? await server.verify(request, next.credentialId, next.setup, authMode)
      : await api.verifySetup(request, type, { integration_name: type, credential_id: next.credentialId, scope: "ORG" });
    const success = result.ok && result.data.success;
    next.verification = success ? "success" : "failed";
    if (!success) return fail(result.ok ? `${SOURCE_MESSAGES.verificationFailed} ${result.data.message}` : `${SOURCE_MESSAGES.verificationFailed} ${result.message}`);
    return back();
  }

  if (intent === "create") {
    const lists = type && authenticated ? (await loadLists(request, type, next, next.setup)).lists : {};
    const metadata = type ? buildMetadata(type, next.setup, lists, authMode) : null;
    const problem = validateCreate({
      name: next.name,
      type,
      gmailAuthMode: authMode,
      authenticated,
      verified: next.verification === "success",
      metadata,
    });
    if (problem) return fail(problem);
    const refused = server.refuseCreate?.(metadata, lists) ?? null;
    if (refused) return fail(refused);
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
