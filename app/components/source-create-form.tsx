import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { DEFAULT_GMAIL_AUTH_MODE, integrationLabel, type SetupInstructions } from "@contract/sources";
import type { CreateActionData, CreatePageData } from "~/services/sources.server";
import { FormBanner } from "./form-banner";
import { CopyButton } from "./copy-button";

/** True once React has hydrated: the no-JS "Apply" buttons hide, and live enabling takes over. */
const noSubscription = () => () => {};
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

const label = "block text-sm font-medium text-slate-800";
const input =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none disabled:bg-slate-100 disabled:text-slate-600";

export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900">
      <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path strokeLinecap="round" strokeLinejoin="round" d="M15 18l-6-6 6-6" />
      </svg>
      {children}
    </Link>
  );
}

export const fieldClasses = { label, input };

function Instructions({ instructions }: { instructions: SetupInstructions }) {
  return (
    <section aria-labelledby="setup-instructions" className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h3 id="setup-instructions" className="text-sm font-semibold text-slate-900">
        Setup instructions
      </h3>
      <p className="mt-1 text-sm text-slate-700">{instructions.introduction}</p>
      <ol className="mt-3 list-decimal space-y-3 pl-5 text-sm text-slate-700">
        {instructions.steps.map((step) => (
          <li key={step.title}>
            <p className="font-medium text-slate-900">{step.title}</p>
            <p className="mt-0.5 whitespace-pre-line">{step.details}</p>
            {step.code_block ? (
              <div className="mt-2 flex items-start gap-2">
                <pre tabIndex={0} aria-label={`${step.title}: code`} className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
                  {step.code_block}
                </pre>
                <CopyButton text={() => step.code_block!} />
              </div>
            ) : null}
            {step.options?.map((option) => (
              <div key={option.sub_title} className="mt-2">
                <p className="text-xs font-semibold text-slate-700">{option.sub_title}</p>
                <pre tabIndex={0} aria-label={`${option.sub_title}: code`} className="mt-1 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
                  {option.code_block}
                </pre>
              </div>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Radio(props: { name: string; value: string; checked: boolean; label: string; onChange?: () => void }) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-800">
      <input type="radio" name={props.name} value={props.value} defaultChecked={props.checked} onChange={props.onChange} className="h-4 w-4 accent-brand-600" />
      {props.label}
    </label>
  );
}

/** Setup is complete enough to create (spec §4). Without JS only what the server knows counts. */
function setupComplete(type: string, values: Record<string, string>, strict: boolean, gmailMode: string | null): boolean {
  if (type === "gmail" && gmailMode === "individual") return true;
  switch (type) {
    case "datagen":
      return values.format === "zoom" || values.format === "gong";
    case "zoom":
      return values.zoom_extraction_scope === "ORG" || (values.zoom_extraction_scope === "GROUP" && (!strict || !!values.zoom_group_id));
    case "teams":
      return values.teams_extraction_scope === "ORG" || (values.teams_extraction_scope === "TEAM" && (!strict || !!values.team_id));
    case "gmail":
      return (!strict || !!values.admin_email?.trim()) && (values.gmail_extraction_scope !== "GROUP" || !strict || !!values.gmail_group_id);
    default:
      return false;
  }
}

/** Create Source (spec §2): the same page for /sources/add and /sources/add/{integrationType}. */
export function SourceCreateForm() {
  const data = useLoaderData<CreatePageData>();
  const actionData = useActionData<CreateActionData>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const type = data.type;
  const gmailMode = data.gmail?.mode ?? null;
  const authStatus = actionData ? actionData.authStatus : data.authStatus;
  const authenticated = authStatus === "authenticated";
  const values = actionData?.values;
  const [setup, setSetup] = useState<Record<string, string>>(values?.setup ?? data.setup);
  // After a revalidation (scope saved, list loaded) the form's live values are the truth again.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const next: Record<string, string> = {};
    for (const [key, value] of new FormData(form)) if (typeof value === "string") next[key] = value;
    setSetup(next);
  }, [data]);
  const needsVerification = type === "teams" || (type === "gmail" && gmailMode !== DEFAULT_GMAIL_AUTH_MODE);
  const verification = actionData?.verification ?? data.verification;
  const verified = !needsVerification || verification === "success";
  const canCreate = !!type && authenticated && verified && setupComplete(type, setup, hydrated, gmailMode);
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const busyIntent = busy ? navigation.formData?.get("intent") : null;
  const errors = actionData?.errors?.length ? actionData.errors : data.errors;

  const readForm = () => {
    const form = formRef.current;
    if (!form) return;
    const next: Record<string, string> = {};
    for (const [key, value] of new FormData(form)) if (typeof value === "string") next[key] = value;
    setSetup(next);
  };
  /** With JS: the type (or Gmail mode) select navigates at once, as the no-JS "Apply" GET does. */
  const applyChoice = () => {
    const form = formRef.current!;
    const fd = new FormData(form);
    const query = new FormData();
    for (const key of ["name", "description", "integration_type", "gmail_auth_mode"]) {
      const value = fd.get(key);
      if (typeof value === "string") query.set(key, value);
    }
    submit(query, { method: "get", action: "/sources/add", preventScrollReset: true });
  };
  /** With JS: a scope change saves the setup and loads the group/team list in place. */
  const saveSetup = () => {
    const fd = new FormData(formRef.current!);
    fd.set("intent", "setup");
    submit(fd, { method: "post", preventScrollReset: true });
  };
  const authLabel = type === "gmail" && gmailMode && gmailMode !== DEFAULT_GMAIL_AUTH_MODE && gmailMode !== "individual" ? "Generate Instructions" : "Authenticate";

  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to="/sources">Sources</BackLink>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Create Source</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Connect a meeting or e-mail account, or the data generator, for connectors to read from.</p>
      <FormBanner errors={errors} />
      {data.notice ? (
        <p role="status" className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {data.notice}
        </p>
      ) : null}
      <Form method="post" ref={formRef} onChange={readForm} className="card space-y-8 p-6" noValidate key={`${type ?? "none"}-${data.authStatus ?? "no"}`}>
        <fieldset className="min-w-0 space-y-5">
          <legend className="text-base font-semibold text-slate-900">Source details</legend>
          <div>
            <label htmlFor="name" className={label}>
              Name
            </label>
            <input id="name" name="name" type="text" defaultValue={values?.name ?? data.name} className={input} autoComplete="off" />
          </div>
          <div>
            <label htmlFor="description" className={label}>
              Description
            </label>
            <textarea id="description" name="description" rows={3} defaultValue={values?.description ?? data.description} className={input} />
          </div>
          <div>
            <label htmlFor="integration_type" className={label}>
              Source type
            </label>
            <div className="mt-1 flex gap-2">
              <select id="integration_type" name="integration_type" defaultValue={type ?? ""} className={`${input} mt-0`} onChange={hydrated ? applyChoice : undefined}>
                <option value="">Select a source type</option>
                {data.integrations.map((i) => (
                  <option key={i.name} value={i.name}>
                    {i.label}
                  </option>
                ))}
              </select>
              {hydrated ? null : (
                <button type="submit" formMethod="get" formAction="/sources/add" className="btn-secondary">
                  Apply
                </button>
              )}
            </div>
          </div>
          {data.gmail ? (
            <div>
              <label htmlFor="gmail_auth_mode" className={label}>
                Authentication type
              </label>
              <div className="mt-1 flex gap-2">
                <select id="gmail_auth_mode" name="gmail_auth_mode" defaultValue={gmailMode ?? ""} className={`${input} mt-0`} onChange={hydrated ? applyChoice : undefined}>
                  <option value="">Select an authentication type</option>
                  {data.gmail.options.map((o) => (
                    <option key={o.mode} value={o.mode}>
                      {o.label}
                    </option>
                  ))}
                </select>
                {hydrated ? null : (
                  <button type="submit" formMethod="get" formAction="/sources/add" className="btn-secondary">
                    Apply
                  </button>
                )}
              </div>
            </div>
          ) : null}
        </fieldset>

        <fieldset className="min-w-0 space-y-3 border-t border-slate-200 pt-6">
          <legend className="sr-only">Authentication</legend>
          <h2 className="text-base font-semibold text-slate-900">Authentication</h2>
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" name="intent" value="authenticate" className={authenticated ? "btn-secondary" : "btn-primary"} disabled={busy}>
              {busyIntent === "authenticate" ? "Authenticating..." : authenticated ? `Authenticate again` : authLabel}
            </button>
            <p className="text-sm" role="status">
              {authenticated ? (
                <span className="inline-flex items-center gap-1.5 font-medium text-emerald-800">
                  <span aria-hidden="true" className="h-2 w-2 rounded-full bg-emerald-500" />
                  Authenticated with {integrationLabel(type ?? "")}
                </span>
              ) : authStatus === "failed" ? (
                <span className="font-medium text-red-800">Authentication failed</span>
              ) : (
                <span className="text-slate-600">Not authenticated</span>
              )}
            </p>
          </div>
        </fieldset>

        {type && authenticated ? (
          <fieldset className="min-w-0 space-y-5 border-t border-slate-200 pt-6">
            <legend className="sr-only">Setup</legend>
            <h2 className="text-base font-semibold text-slate-900">Setup</h2>
            {type === "datagen" ? (
              <>
                <div>
                  <label htmlFor="company" className={label}>
                    Company name
                  </label>
                  <input id="company" name="company" type="text" defaultValue={setup.company ?? ""} className={input} aria-describedby="company-hint" />
                  <p id="company-hint" className="mt-1 text-xs text-slate-600">
                    Up to 100 characters; used in the generated meetings.
                  </p>
                </div>
                <div>
                  <label htmlFor="format" className={label}>
                    Data style
                  </label>
                  <select id="format" name="format" defaultValue={setup.format ?? "zoom"} className={input}>
                    <option value="zoom">zoom</option>
                    <option value="gong">gong</option>
                  </select>
                </div>
              </>
            ) : null}
            {type === "zoom" ? (
              <>
                <div role="radiogroup" aria-labelledby="zoom-scope" className="space-y-2">
                  <p id="zoom-scope" className={label}>
                    Extraction scope
                  </p>
                  <Radio name="zoom_extraction_scope" value="ORG" checked={setup.zoom_extraction_scope !== "GROUP"} label="Entire organization" onChange={hydrated ? saveSetup : undefined} />
                  <Radio name="zoom_extraction_scope" value="GROUP" checked={setup.zoom_extraction_scope === "GROUP"} label="A specific group" onChange={hydrated ? saveSetup : undefined} />
                  {hydrated ? null : (
                    <button type="submit" name="intent" value="setup" className="btn-secondary">
                      Load groups
                    </button>
                  )}
                </div>
                {data.setup.zoom_extraction_scope === "GROUP" ? (
                  <div>
                    <label htmlFor="zoom_group_id" className={label}>
                      Zoom group
                    </label>
                    <select id="zoom_group_id" name="zoom_group_id" defaultValue={setup.zoom_group_id ?? ""} className={input}>
                      <option value="">Select a group</option>
                      {(data.lists.zoomGroups ?? []).map((g) => (
                        <option key={g.id} value={g.id}>
                          {g.name} ({g.total_members} {g.total_members === 1 ? "member" : "members"})
                        </option>
                      ))}
                    </select>
                  </div>
                ) : null}
              </>
            ) : null}
            {type === "gmail" && gmailMode === "individual" ? (
              <p className="text-sm text-slate-700">Tributary reads only the mailbox you signed in with (individual scope). Test the connection to finish.</p>
            ) : null}
            {type === "gmail" && gmailMode !== "individual" ? (
              <>
                <div>
                  <label htmlFor="admin_email" className={label}>
                    Workspace admin e-mail
                  </label>
                  <input id="admin_email" name="admin_email" type="email" defaultValue={setup.admin_email ?? ""} className={input} autoComplete="off" />
                </div>
                <div role="radiogroup" aria-labelledby="gmail-scope" className="space-y-2">
                  <p id="gmail-scope" className={label}>
                    Extraction scope
                  </p>
                  <Radio name="gmail_extraction_scope" value="ORG" checked={setup.gmail_extraction_scope !== "GROUP"} label="Entire organization" onChange={hydrated ? saveSetup : undefined} />
                  <Radio name="gmail_extraction_scope" value="GROUP" checked={setup.gmail_extraction_scope === "GROUP"} label="A specific group" onChange={hydrated ? saveSetup : undefined} />
                  <button type="submit" name="intent" value="setup" className="btn-secondary">
                    Load groups
                  </button>
                </div>
                {data.setup.gmail_extraction_scope === "GROUP" ? (
                  data.lists.googleGroups ? (
                    <div>
                      <label htmlFor="gmail_group_id" className={label}>
                        Google group
                      </label>
                      <select id="gmail_group_id" name="gmail_group_id" defaultValue={setup.gmail_group_id ?? ""} className={input}>
                        <option value="">Select a group</option>
                        {data.lists.googleGroups.map((g) => (
                          <option key={g.id} value={g.id}>
                            {g.name} ({g.email})
                          </option>
                        ))}
                      </select>
                    </div>
                  ) : (
                    <p className="text-sm text-slate-600">Enter the Workspace admin e-mail, then load the groups.</p>
                  )
                ) : null}
              </>
            ) : null}
            {type === "teams" ? (
              <>
                <div role="radiogroup" aria-labelledby="teams-scope" className="space-y-2">
                  <p id="teams-scope" className={label}>
                    Extraction scope
                  </p>
                  <Radio name="teams_extraction_scope" value="ORG" checked={setup.teams_extraction_scope !== "TEAM"} label="Entire organization" onChange={hydrated ? saveSetup : undefined} />
                  <Radio name="teams_extraction_scope" value="TEAM" checked={setup.teams_extraction_scope === "TEAM"} label="A specific team" onChange={hydrated ? saveSetup : undefined} />
                </div>
                {data.setup.teams_extraction_scope === "TEAM" ? (
                  <div>
                    <label htmlFor="team_id" className={label}>
                      Team
                    </label>
                    <select id="team_id" name="team_id" defaultValue={setup.team_id ?? ""} className={input} onChange={hydrated ? saveSetup : undefined}>
                      <option value="">Select a team</option>
                      {(data.lists.teams ?? []).map((team) => (
                        <option key={team.team_id} value={team.team_id}>
                          {team.team_name} ({team.member_count} {team.member_count === 1 ? "member" : "members"}){team.already_configured ? " — already connected" : ""}
                        </option>
                      ))}
                    </select>
                  </div>
                ) : null}
                {hydrated ? null : (
                  <button type="submit" name="intent" value="setup" className="btn-secondary">
                    Apply scope
                  </button>
                )}
                {data.lists.teamInstructions ? <Instructions instructions={data.lists.teamInstructions} /> : null}
              </>
            ) : null}
            {data.instructions ? <Instructions instructions={data.instructions} /> : null}
            {needsVerification ? (
              <div className="flex flex-wrap items-center gap-3">
                <button type="submit" name="intent" value="verify" className="btn-secondary" disabled={busy}>
                  {busyIntent === "verify" ? "Verifying..." : type === "gmail" ? "Test Connection" : "Verify Setup"}
                </button>
                <p className="text-sm" role="status">
                  {verification === "success" ? (
                    <span className="font-medium text-emerald-800">Setup verified</span>
                  ) : verification === "failed" ? (
                    <span className="font-medium text-red-800">Verification failed</span>
                  ) : (
                    <span className="text-slate-600">Not verified yet</span>
                  )}
                </p>
              </div>
            ) : null}
          </fieldset>
        ) : null}

        <div className="flex items-center justify-end gap-3 border-t border-slate-200 pt-6">
          <Link to="/sources" className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" name="intent" value="create" className="btn-primary" disabled={!canCreate || busy}>
            {busyIntent === "create" ? "Creating..." : "Create"}
          </button>
        </div>
      </Form>
    </div>
  );
}
