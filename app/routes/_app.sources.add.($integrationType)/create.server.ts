import { redirect, type AppLoadContext } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import type { Submission, SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import {
  integrationLabel,
  isSourceIntegration,
  METADATA_SCHEMAS,
  SOURCE_MESSAGES,
  type SetupInstructions,
  type SourceFormValue,
  type SourceIntegrationName,
} from "@contract/sources";
import type { UserInfo } from "@contract/auth";
import type { SetupLists } from "~/integrations/sources";
import { isAuthMode, sourceServer, type AuthOption } from "~/integrations/sources.server";
import { api, fetchSourceIntegrations, type IntegrationOption } from "~/services/sources.server";
import {
  authenticatedFor,
  buildMetadata,
  DEFAULT_SETUP,
  emptyDraft,
  needsVerification,
  pickSetup,
  readDraft,
  resetAuthentication,
  SETUP_FIELDS,
  withSetup,
  type SourceDraft,
} from "./draft.server";

/** The loader and action of /sources/add and /sources/add/{integrationType} (spec §2 "Create Source"). */

export interface CreatePageData {
  type: SourceIntegrationName | null;
  /** This attempt's id, sent back by the form's own GETs (see draft.server.ts). */
  attempt: string;
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
  result: SubmissionResult<string[]>;
  /** The draft's state after this action: a 400 answer is not followed by a loader revalidation. */
  verification: SourceDraft["verification"];
  authStatus: SourceDraft["authStatus"];
}

/** The form's part for an integration: its setup fields and authentication types (what its schema reads). */
export function formFields(type: SourceIntegrationName | null) {
  const modes = sourceServer(type).authModes;
  return {
    setupFields: type ? SETUP_FIELDS[type] : [],
    authMode: type && modes ? { field: modes.field, modes: modes.modes.map((m) => m.mode), required: modes.required } : undefined,
  };
}

/**
 * The source type a post of the form is for: the one its select shows, which the form sends as `integration_type`,
 * not the one in the page's address. They differ when a button is pressed right after a choice of type: with
 * JavaScript, before the page has followed the choice to /sources/add/{type} (the post interrupts that load);
 * without it, when a button other than the type's Continue is pressed. The server then does what the screen says
 * ("Authenticate" with the type shown) instead of refusing it or acting on the type the page showed before.
 * A type whose page was not drawn yet sent no authentication type: it gets the one its page preselects. A post
 * without the field (none of the form's own) is for the address's type.
 */
export function postedType(form: FormData, typeParam: string | undefined): SourceIntegrationName | null {
  const fromAddress = isSourceIntegration(typeParam) ? typeParam : null;
  const sent = form.get("integration_type");
  if (typeof sent !== "string") return fromAddress;
  const type = isSourceIntegration(sent) ? sent : null;
  const modes = sourceServer(type).authModes;
  if (type && type !== fromAddress && modes && !form.has(modes.field)) form.set(modes.field, modes.defaultMode);
  return type;
}

/** Where the type select's GET (or its JS equivalent) lands: the type in the path, typed text carried along. */
export function typeUrl(type: string | null, sent: Record<string, unknown>): string {
  const carry = new URLSearchParams();
  const modeField = sourceServer(type).authModes?.field;
  for (const key of ["name", "description", ...(modeField ? [modeField] : [])]) {
    const value = sent[key];
    // An empty mode is a choice too ("Select an authentication type"); empty text is not worth carrying.
    if (typeof value === "string" && (value || key === modeField)) carry.set(key, value.slice(0, 2000));
  }
  const query = carry.toString();
  return `/sources/add${type ? `/${type}` : ""}${query ? `?${query}` : ""}`;
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

/** The provider's answers that bring the browser back to the form: a code, an error, or an admin consent. */
const PROVIDER_RETURN = ["code", "error", "admin_consent"];

/** The provider sent the browser back: post the code (or tenant + admin consent) to the callback. */
async function providerReturn(request: Request, draft: SourceDraft, type: SourceIntegrationName, params: URLSearchParams): Promise<SourceDraft> {
  const server = sourceServer(type);
  let next: SourceDraft = { ...draft, oauth: null };
  const attempt = draft.oauth;
  const returnMode = server.authModes ? (server.redirectMode ?? null) : null;
  if (!attempt || attempt.integration !== type || attempt.state !== params.get("state")) {
    return { ...next, flash: "This authorization could not be verified (it expired, was replayed or was started in another browser). Please authenticate again." };
  }
  if (params.get("error")) {
    next = { ...resetAuthentication(next), name: draft.name, description: draft.description, authStatus: "failed" };
    // The provider's own words, ended once ("…consent to access the app." is Microsoft's, full stop included).
    const reason = (params.get("error_description") ?? params.get("error") ?? "").trim().replace(/\.+$/, "");
    return { ...next, flash: `${integrationLabel(type)} authentication failed: ${reason}.` };
  }
  const body: Record<string, string> = params.has("admin_consent") ? { tenant: params.get("tenant") ?? "", admin_consent: params.get("admin_consent") ?? "" } : { code: params.get("code") ?? "" };
  const result = await api.callback(request, type, body);
  if (!result.ok) return { ...next, authStatus: "failed", credentialId: null, flash: result.message };
  return {
    ...next,
    integration: type,
    authMode: returnMode,
    credentialId: result.data.credential_id,
    authStatus: "authenticated",
    instructions: result.data.instructions,
    verification: needsVerification(type, returnMode) && !result.data.setup_verified ? "pending" : "none",
    setup: { ...DEFAULT_SETUP[type], ...(draft.integration === type ? draft.setup : {}) },
  };
}

/** The form's own GET (the type or authentication-type choice, "Continue"): everything it holds, as typed. */
const choiceSchema = z.object({ integration_type: z.string(), attempt: z.string().optional() }).passthrough();

/**
 * The form's own GET: continue its attempt (the same type applied again keeps the setup chosen so far) and
 * put the chosen type in the path, the typed text and authentication type in the query.
 */
function applyChoice(url: URL, draft: SourceDraft, stored: boolean, user: UserInfo): { next: SourceDraft; to: string } {
  const submission = parseWithZod(url.searchParams, { schema: choiceSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return { next: { ...emptyDraft(user.id), resume: true }, to: "/sources/add" };
  const sent = submission.value as Record<string, unknown>;
  const asked = isSourceIntegration(submission.value.integration_type) ? submission.value.integration_type : null;
  const continuing = stored && submission.value.attempt === draft.attempt;
  let next = continuing ? draft : emptyDraft(user.id);
  const modeField = sourceServer(asked).authModes?.field;
  const mode = modeField ? sent[modeField] : undefined;
  if (asked && next.integration === asked && (mode === undefined || mode === next.authMode)) next = withSetup(next, asked, pickSetup(sent, asked));
  return { next: { ...next, resume: true }, to: typeUrl(asked, sent) };
}

export async function loadCreatePage(request: Request, context: AppLoadContext, user: UserInfo, typeParam: string | undefined): Promise<Response> {
  const url = new URL(request.url);
  const { draft, stored, commit, destroy } = await readDraft(request, user, context);
  if (url.searchParams.has("integration_type")) {
    const { next, to } = applyChoice(url, draft, stored, user);
    throw redirect(to, { headers: { "set-cookie": await commit(next) } });
  }
  if (typeParam !== undefined && !isSourceIntegration(typeParam)) throw new Response("There is no such source type.", { status: 404 });
  const type = typeParam ?? null;
  const server = sourceServer(type);

  // The provider sends the browser back here: post its answer to the callback, then drop it from the address.
  if (type && PROVIDER_RETURN.some((k) => url.searchParams.has(k))) {
    const next = await providerReturn(request, draft, type, url.searchParams);
    const returnMode = server.authModes ? (server.redirectMode ?? null) : null;
    throw redirect(addUrl(type, returnMode), { headers: { "set-cookie": await commit({ ...next, resume: true }) } });
  }

  // Only the server's own way back to the form continues an attempt; any other opening starts a new one.
  const headers = new Headers({ "cache-control": "no-store" });
  let next: SourceDraft = draft.resume ? { ...draft, resume: false } : emptyDraft(user.id);
  if (!draft.resume && stored) headers.append("set-cookie", await destroy());
  const continued = next;

  let notice: string | null = null;
  const modes = type ? server.authModes : undefined;
  const authMode: CreatePageData["authMode"] = modes ? { field: modes.field, ...(await modes.options(request)), mode: null } : null;
  if (modes && authMode) {
    const fromUrl = url.searchParams.get(modes.field);
    authMode.mode = fromUrl !== null ? (isAuthMode(modes, fromUrl) ? fromUrl : null) : next.integration === type && next.authMode ? next.authMode : modes.defaultMode;
  }
  if (type && next.credentialId && next.integration && next.integration !== type) {
    next = resetAuthentication(next);
    notice = SOURCE_MESSAGES.integrationChanged;
  } else if (authMode && next.integration === type && next.credentialId && next.authMode !== authMode.mode) {
    next = resetAuthentication(next);
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
    attempt: next.attempt,
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
  if (draft.resume || next !== continued) headers.append("set-cookie", await commit(next));
  return Response.json(data, { headers });
}

/** Create's checks on what the server holds (spec §5, after the form's own): an integration, the authentication, the verification, the setup's rules. */
export function createProblems(
  type: SourceIntegrationName | null,
  authenticated: boolean,
  verified: boolean,
  mode: string | null,
  metadata: Record<string, unknown> | null,
): { formErrors: string[]; fieldErrors: Record<string, string[]> } {
  const formErrors: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  const add = (field: string | null, message: string) => {
    if (field) (fieldErrors[field] ??= []).push(message);
    else formErrors.push(message);
  };
  if (!type) {
    add("integration_type", SOURCE_MESSAGES.integrationRequired);
    return { formErrors, fieldErrors };
  }
  if (!authenticated) {
    add(null, SOURCE_MESSAGES.mustAuthenticate);
    return { formErrors, fieldErrors };
  }
  if (needsVerification(type, mode) && !verified) add(null, SOURCE_MESSAGES.mustVerify);
  const parsed = METADATA_SCHEMAS[type].safeParse(metadata ?? {});
  const modeField = sourceServer(type).authModes?.field;
  const fields = new Set([...SETUP_FIELDS[type], ...(modeField ? [modeField] : [])]);
  if (!parsed.success) for (const issue of parsed.error.issues) add(fields.has(String(issue.path[0])) ? String(issue.path[0]) : null, issue.message);
  return { formErrors, fieldErrors };
}

/** What a button of the form does, its post read by the form's schema (route.tsx). */
export async function submitCreateForm(
  request: Request,
  context: AppLoadContext,
  user: UserInfo,
  type: SourceIntegrationName | null,
  submission: Submission<SourceFormValue, string[]>,
): Promise<Response> {
  const { draft, commit, destroy } = await readDraft(request, user, context);
  const server = sourceServer(type);
  const modes = type ? server.authModes : undefined;
  const state = (of: SourceDraft) => ({ verification: of.verification, authStatus: !of.integration || of.integration === type ? of.authStatus : null });
  if (submission.status !== "success") {
    return Response.json({ result: submission.reply(), ...state(draft) } satisfies CreateActionData, { status: 400, headers: { "set-cookie": await commit(draft) } });
  }

  const value: SourceFormValue = submission.value;
  const mode = modes && isAuthMode(modes, value[modes.field]) ? value[modes.field]! : null;
  let next: SourceDraft = { ...draft, name: value.name ?? "", description: value.description, flash: null };
  if (type) next = withSetup(next, type, pickSetup(value, type));
  const fail = async (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, status = 400) =>
    Response.json({ result: submission.reply(errors), ...state(next) } satisfies CreateActionData, { status, headers: { "set-cookie": await commit(next) } });
  const back = async () => redirect(type ? addUrl(type, mode) : "/sources/add", { headers: { "set-cookie": await commit({ ...next, resume: true }) } });

  if (value.intent === "authenticate") {
    if (!type) return fail({ fieldErrors: { integration_type: [SOURCE_MESSAGES.integrationBeforeAuth] } });
    const keep = { name: next.name, description: next.description, setup: next.integration === type ? next.setup : { ...DEFAULT_SETUP[type], ...pickSetup(value, type) } };
    next = { ...resetAuthentication(next), ...keep };
    const flow = server.authFlow(mode);
    if (flow.redirect) {
      const result = await api.authUrl(request, type);
      if (!result.ok) {
        next.authStatus = "failed";
        return fail({ formErrors: [result.message] });
      }
      next.oauth = { integration: type, state: result.data.state };
      return redirect(result.data.auth_url, { headers: { "set-cookie": await commit(next) } });
    }
    const result = await api.callback(request, type, flow.body, flow.failure);
    if (!result.ok) {
      next.authStatus = "failed";
      return fail({ formErrors: [flow.failure ?? result.message] });
    }
    next = {
      ...next,
      integration: type,
      authMode: mode,
      credentialId: result.data.credential_id,
      authStatus: "authenticated",
      instructions: result.data.instructions,
      verification: needsVerification(type, mode) && !result.data.setup_verified ? "pending" : "none",
    };
    return back();
  }

  if (value.intent === "setup") return back();

  const authenticated = type ? authenticatedFor(next, type, mode) : false;

  if (value.intent === "verify") {
    if (!type || !authenticated || !next.credentialId) return fail({ formErrors: [SOURCE_MESSAGES.mustAuthenticate] });
    const result = server.verify
      ? await server.verify(request, next.credentialId, next.setup, mode)
      : await api.verifySetup(request, type, { integration_name: type, credential_id: next.credentialId, scope: "ORG" });
    const success = result.ok && result.data.success;
    next.verification = success ? "success" : "failed";
    if (!success) return fail({ formErrors: [`${SOURCE_MESSAGES.verificationFailed} ${result.ok ? result.data.message : result.message}`] });
    return back();
  }

  const lists = type && authenticated ? (await loadLists(request, type, next, next.setup)).lists : {};
  const metadata = type ? buildMetadata(type, next.setup, lists, mode) : null;
  const problems = createProblems(type, authenticated, next.verification === "success", mode, metadata);
  if (problems.formErrors.length || Object.keys(problems.fieldErrors).length) return fail(problems);
  const refused = server.refuseCreate?.(metadata, lists);
  if (refused) return fail({ fieldErrors: { [refused.field]: [refused.message] } });
  const result = await api.createSource(request, {
    name: next.name,
    description: next.description,
    credentialId: next.credentialId,
    integration_name: type,
    integration_label: integrationLabel(type!),
    source_metadata: metadata,
  });
  if (!result.ok) return fail({ formErrors: [SOURCE_MESSAGES.createFailed(result.message)] }, result.status >= 500 ? 502 : 400);
  return redirect("/sources", { headers: { "set-cookie": await destroy() } });
}
