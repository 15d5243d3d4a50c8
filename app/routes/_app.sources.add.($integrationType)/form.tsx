import { useEffect, useMemo, useRef, useState } from "react";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { integrationLabel } from "@contract/sources";
import { needsVerification as verificationNeeded } from "@contract/integrations/sources";
import { controlProps, FIELD_PREFIX, Instructions, setupClasses } from "~/integrations/source-setup";
import { sourceSetup as setupOf } from "~/integrations/sources";
import { BackLink } from "~/components/ui/back-link";
import { useChoiceSelect } from "~/components/ui/choice-select";
import { ContinueButton } from "~/components/ui/continue-button";
import { Field } from "~/components/ui/field";
import { FormBanner } from "~/components/ui/form-banner";
import type { CreateActionData, CreatePageData } from "./create.server";

/** The form's live values (what a submit would send), buttons aside. */
function formValues(form: HTMLFormElement | null): Record<string, string> {
  const values: Record<string, string> = {};
  if (form) for (const [key, value] of new FormData(form)) if (typeof value === "string") values[key] = value;
  return values;
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
  const authMode = data.authMode;
  const mode = authMode?.mode ?? null;
  // A new load (the redirect after a button, a choice) clears the last submit's errors: conform keeps them until told.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new object for each load is the point
  const cleared = useMemo<SubmissionResult<string[]>>(() => ({ error: {} }), [data]);
  const [form] = useForm({ id: "source-create", lastResult: actionData?.result ?? cleared, shouldValidate: "onSubmit" });
  const typed = (actionData?.result.initialValue ?? null) as Record<string, unknown> | null;
  const typedText = (key: string, fallback: string) => (typeof typed?.[key] === "string" ? (typed[key] as string) : fallback);
  const authStatus = actionData ? actionData.authStatus : data.authStatus;
  const authenticated = authStatus === "authenticated";
  const [setup, setSetup] = useState<Record<string, string>>(() => {
    const values = { ...data.setup };
    for (const key of Object.keys(typed ?? {})) if (typeof typed?.[key] === "string") values[key] = typed[key] as string;
    return values;
  });
  // After a revalidation (scope saved, list loaded) the form's live values are the truth again.
  useEffect(() => setSetup(formValues(formRef.current)), [data]);
  const sourceSetup = setupOf(type);
  const needsVerification = !!type && verificationNeeded(type, authMode ? { [authMode.field]: mode } : {});
  const verification = actionData?.verification ?? data.verification;
  const verified = !needsVerification || verification === "success";
  const canCreate = !!type && authenticated && verified && !!sourceSetup?.complete(setup, hydrated, mode);
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const busyIntent = busy ? navigation.formData?.get("intent") : null;

  // The errors of the last submit, at their fields and all in the banner; else what the page's load reported.
  const fieldErrors = form.allErrors;
  const errorOf = (name: string) => fieldErrors[name]?.[0];
  const bannerErrors = useMemo(() => [...new Set(Object.values(fieldErrors).flat())], [fieldErrors]);
  const errors = bannerErrors.length ? bannerErrors : data.errors;

  /** With JS: the type (or authentication type) select applies at once, as the no-JS "Continue" GET does, with the whole form. */
  const applyChoice = () => submit(formRef.current, { method: "get", action: "/sources/add", preventScrollReset: true });
  const typeSelect = useChoiceSelect(type ?? "", applyChoice);
  const modeSelect = useChoiceSelect(mode ?? "", applyChoice);
  /** With JS: a scope change saves the setup and loads the group/team list in place. */
  const saveSetup = () => {
    const formData = new FormData(formRef.current!);
    formData.set("intent", "setup");
    submit(formData, { method: "post", preventScrollReset: true });
  };
  const authLabel = sourceSetup?.authLabel?.(mode) ?? "Authenticate";
  const typeError = errorOf("integration_type");
  const modeError = authMode ? errorOf(authMode.field) : undefined;

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
      <Form method="post" ref={formRef} {...getFormProps(form)} onChange={() => setSetup(formValues(formRef.current))} className="card space-y-8 p-6">
        <input type="hidden" name="attempt" value={data.attempt} />
        <fieldset className="min-w-0 space-y-5">
          <legend className="text-base font-semibold text-slate-900">Source details</legend>
          <Field name="name" label="Name" idPrefix={FIELD_PREFIX} defaultValue={typedText("name", data.name)} error={errorOf("name")} />
          <Field name="description" label="Description" idPrefix={FIELD_PREFIX} error={errorOf("description")}>
            <textarea {...controlProps("description", errorOf("description"))} rows={3} defaultValue={typedText("description", data.description)} className={setupClasses.input} />
          </Field>
          <Field name="integration_type" label="Source type" idPrefix={FIELD_PREFIX} error={typeError}>
            <div className="mt-1 flex gap-2">
              <select ref={typeSelect} {...controlProps("integration_type", typeError)} defaultValue={type ?? ""} className={`${setupClasses.input} mt-0`} onChange={hydrated ? applyChoice : undefined}>
                <option value="">Select a source type</option>
                {data.integrations.map((i) => (
                  <option key={i.name} value={i.name}>
                    {i.label}
                  </option>
                ))}
              </select>
              <ContinueButton what="source type" formAction="/sources/add" />
            </div>
          </Field>
          {authMode ? (
            <Field name={authMode.field} label="Authentication type" idPrefix={FIELD_PREFIX} error={modeError}>
              <div className="mt-1 flex gap-2">
                <select ref={modeSelect} {...controlProps(authMode.field, modeError)} defaultValue={mode ?? ""} className={`${setupClasses.input} mt-0`} onChange={hydrated ? applyChoice : undefined}>
                  <option value="">Select an authentication type</option>
                  {authMode.options.map((o) => (
                    <option key={o.mode} value={o.mode}>
                      {o.label}
                    </option>
                  ))}
                </select>
                <ContinueButton what="authentication type" formAction="/sources/add" />
              </div>
            </Field>
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
              <sourceSetup.Setup setup={setup} saved={data.setup} lists={data.lists} errors={fieldErrors} authMode={mode} hydrated={hydrated} saveSetup={saveSetup} />
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
