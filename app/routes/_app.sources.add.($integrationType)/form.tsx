import { useEffect, useRef, useState } from "react";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { integrationLabel } from "@contract/sources";
import { needsVerification as verificationNeeded } from "@contract/integrations/sources";
import { Instructions, setupClasses } from "~/integrations/source-setup";
import { sourceSetup as setupOf } from "~/integrations/sources";
import type { CreateActionData, CreatePageData } from "~/services/sources.server";
import { useHydrated } from "remix-utils/use-hydrated";
import { BackLink } from "./ui/back-link";
import { FormBanner } from "~/components/ui/form-banner";


const { label, input } = setupClasses;



/** Create Source (spec §2): the same page for /sources/add and /sources/add/{integrationType}. */
export function SourceCreateForm() {
  const data = useLoaderData<CreatePageData>();
  const actionData = useActionData<CreateActionData>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const type = data.type;
  const authMode = data.authMode;
  const mode = authMode?.mode ?? null;
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
  const sourceSetup = setupOf(type);
  const needsVerification = !!type && verificationNeeded(type, authMode ? { [authMode.field]: mode } : {});
  const verification = actionData?.verification ?? data.verification;
  const verified = !needsVerification || verification === "success";
  const canCreate = !!type && authenticated && verified && !!sourceSetup?.complete(setup, hydrated, mode);
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
  /** With JS: the type (or authentication mode) select navigates at once, as the no-JS "Apply" GET does. */
  const applyChoice = () => {
    const form = formRef.current!;
    const fd = new FormData(form);
    const query = new FormData();
    for (const key of ["name", "description", "integration_type", ...(authMode ? [authMode.field] : [])]) {
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
  const authLabel = sourceSetup?.authLabel?.(mode) ?? "Authenticate";

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
          {authMode ? (
            <div>
              <label htmlFor={authMode.field} className={label}>
                Authentication type
              </label>
              <div className="mt-1 flex gap-2">
                <select id={authMode.field} name={authMode.field} defaultValue={mode ?? ""} className={`${input} mt-0`} onChange={hydrated ? applyChoice : undefined}>
                  <option value="">Select an authentication type</option>
                  {authMode.options.map((o) => (
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
            {sourceSetup ? (
              <sourceSetup.Setup setup={setup} saved={data.setup} lists={data.lists} authMode={mode} hydrated={hydrated} saveSetup={saveSetup} />
            ) : null}
            {data.instructions ? <Instructions instructions={data.instructions} /> : null}
            {needsVerification ? (
              <div className="flex flex-wrap items-center gap-3">
                <button type="submit" name="intent" value="verify" className="btn-secondary" disabled={busy}>
                  {busyIntent === "verify" ? "Verifying..." : (sourceSetup?.verifyLabel ?? "Verify Setup")}
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
