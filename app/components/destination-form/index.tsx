import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { IntegrationInstructions, IntegrationOption } from "@contract/destinations";
import { destinationManifest, destinationSetup, type ServiceAccountView } from "~/integrations";
import { useChoiceSelect } from "~/components/ui/choice-select";
import { ContinueButton } from "~/components/ui/continue-button";
import { FormBanner } from "~/components/ui/form-banner";
import { Field, type FormValues } from "./fields";
import { GenericSetup } from "./generic-setup";
import { fingerprint, schemaFor, settingFields, type TestState } from "./schemas";

export type { FormValues } from "./fields";
export type { ServiceAccountView } from "~/integrations";
export { fingerprint, schemaFor, settingFields, testedFields, type TestState } from "./schemas";

/**
 * The destination form of spec §2/§4: name, description, integration type and the type's sub-form, drawn from
 * its manifest's fields (or by its own setup component, app/integrations/). One plain HTML form: every button
 * is a submit with an `intent` (test, instructions, create/update), so it all works without JavaScript; the
 * type's "Next" is a GET that puts ?type= in the address. With JavaScript the type switches in place, fields
 * validate on blur, and Create stays disabled until a successful test over exactly the current values (the
 * server enforces the same with a signed token). `readOnly` renders it prefilled and locked, without page
 * chrome or buttons, for embedding (template setup flow).
 */

export interface DestinationFormProps {
  mode: "create" | "edit";
  integrations: IntegrationOption[];
  integration: string | null;
  defaults: FormValues;
  serviceAccount: ServiceAccountView | null;
  instructions: IntegrationInstructions | null;
  test: TestState | null;
  lastResult?: SubmissionResult<string[]> | null;
  /** Messages from the server that are not about one field (backend errors). */
  errors?: string[];
  readOnly?: boolean;
  /** Where the form posts (defaults to the current route). */
  action?: string;
  /** Edit: the stored values (a test is needed only when a tested setting differs from them). */
  original?: FormValues;
  /** Where Cancel goes. */
  cancelTo?: string;
}

function readValues(form: HTMLFormElement | null, fallback: FormValues): FormValues {
  if (!form) return fallback;
  const values: FormValues = {};
  for (const [key, value] of new FormData(form)) if (typeof value === "string" && key !== "intent" && key !== "validation_token") values[key] = value;
  return values;
}

/**
 * The type the select last navigated to: the form drawn for that type takes the focus back. It names the type, not
 * just "refocus", because a quick second choice can land while the first type's form is still being drawn.
 */
let refocusType: string | null = null;
/** Focus moves as the new form is committed, before the browser hands the next key press to a select that is gone. */
const useCommitEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

export function DestinationForm(props: DestinationFormProps) {
  const { mode, integration, readOnly } = props;
  const manifest = destinationManifest(integration);
  const setup = destinationSetup(integration);
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const changeType = (type: string) => {
    refocusType = type;
    const current = readValues(formRef.current, props.defaults);
    const params = new URLSearchParams();
    if (current.name) params.set("name", current.name);
    if (current.description) params.set("description", current.description);
    if (type) params.set("type", type);
    submit(params, { method: "get", action: "/destinations/add", replace: true, preventScrollReset: true });
  };
  // A type chosen before the page's script ran is loaded as a change of the select is.
  const typeSelect = useChoiceSelect(integration ?? "", changeType);
  // The page draws a new form for the chosen type: keyboard focus goes back to the type select it came from.
  useCommitEffect(() => {
    if (refocusType === null || refocusType !== (integration ?? "")) return;
    refocusType = null;
    typeSelect.current?.focus({ preventScroll: true });
  }, [integration]);
  const [values, setValues] = useState<FormValues>(props.defaults);
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const [attempted, setAttempted] = useState(false);
  /** The button of the last submit: fields revalidate on input by the same rules (test, instructions or save). */
  const lastIntent = useRef<string | null>(null);
  const [secretEdited, setSecretEdited] = useState(false);

  const [form, fields] = useForm({
    id: `destination-${mode}`,
    lastResult: props.lastResult,
    defaultValue: props.defaults,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate({ formData }) {
      return parseWithZod(formData, { schema: schemaFor(mode, (formData.get("intent") as string | null) ?? lastIntent.current) });
    },
  });
  const formProps = getFormProps(form);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    lastIntent.current = submitter?.name === "intent" ? submitter.value : null;
    setAttempted(true);
    formProps.onSubmit(event);
  };
  // eslint-disable-next-line react-hooks/set-state-in-effect -- a new test result starts clean
  useEffect(() => setSecretEdited(false), [props.test]);

  // The banner: the loader's problems, and the errors of the last submit (the browser's or the server's),
  // kept current as the fields are fixed. Errors found on blur before any submit stay by their field.
  const showFieldErrors = attempted || !!props.lastResult?.error;
  const fieldErrors = form.allErrors;
  const bannerErrors = useMemo(() => {
    const list = [...(props.errors ?? []), ...(form.errors ?? [])];
    if (showFieldErrors) for (const messages of Object.values(fieldErrors)) list.push(...messages);
    return [...new Set(list)];
  }, [props.errors, form.errors, fieldErrors, showFieldErrors]);

  const needsConnectionTest = manifest?.needsConnectionTest === true;
  const sameValues = !!props.test && props.test.fingerprint === fingerprint(integration, values) && !secretEdited;
  const tested = props.test?.ok === true && sameValues;
  const original = props.original ?? props.defaults;
  // Edit: a test is needed only when a tested setting changed (and only where an update may change settings).
  const settingsChanged = mode === "edit" && !!setup.editable && settingFields(integration).some((f) => (values[f] ?? "").trim() !== (original[f] ?? "").trim());
  const needsTest = mode === "create" ? needsConnectionTest : settingsChanged;
  const canSubmit = !needsTest || tested;
  const showTest = needsConnectionTest && !readOnly && (mode === "create" || !!setup.editable);

  const onChange = (event: React.FormEvent<HTMLFormElement>) => {
    if (manifest?.secretFields.includes((event.target as HTMLInputElement).name)) setSecretEdited(true);
    setValues(readValues(formRef.current, props.defaults));
  };
  // Types that are offered but not set up on this server: one sentence per reason under the select.
  const unavailableReasons = [...new Set(props.integrations.flatMap((option) => (option.unavailable ? [option.unavailable] : [])))];
  const testLabel = setup.testLabel ? setup.testLabel[mode] : "Test Connection";
  const locked = readOnly ? true : undefined;
  const Setup = setup.Component;
  const setupProps = {
    manifest: manifest!,
    mode,
    defaults: props.defaults,
    errors: fieldErrors,
    serviceAccount: props.serviceAccount,
    instructions: props.instructions,
  };

  return (
    <Form method="post" action={props.action} ref={formRef} {...formProps} onSubmit={onSubmit} onChange={onChange} className="space-y-6" noValidate>
      <FormBanner errors={bannerErrors} focusKey={props.lastResult} />
      <section className="card space-y-5 p-6">
        <Field name="name" label="Name" defaultValue={props.defaults.name} readOnly={locked} invalid={!!fields.name.errors} placeholder="e.g. Analytics warehouse" />
        <Field name="description" label="Description" invalid={!!fields.description.errors}>
          <textarea
            id="destination-description"
            name="description"
            rows={3}
            defaultValue={props.defaults.description}
            readOnly={locked}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm read-only:bg-slate-50 focus:border-brand-500 focus:outline-none"
          />
        </Field>
        <Field name="type" label="Integration type" invalid={!!(fieldErrors.type ?? fieldErrors.integration_name)}>
          <div className="mt-1 flex flex-col gap-2 sm:flex-row">
            {mode === "edit" || readOnly ? (
              <>
                <input type="hidden" name="type" value={integration ?? ""} />
                <input
                  id="destination-type"
                  readOnly
                  value={props.integrations.find((i) => i.name === integration)?.label ?? integration ?? ""}
                  className="block w-full rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-700"
                  aria-describedby="destination-type-locked"
                />
              </>
            ) : (
              <select
                ref={typeSelect}
                id="destination-type"
                name="type"
                defaultValue={integration ?? ""}
                aria-describedby={unavailableReasons.length ? "destination-type-unavailable" : undefined}
                onChange={(event) => changeType(event.currentTarget.value)}
                className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:outline-none"
              >
                <option value="">Select an integration type</option>
                {props.integrations.map((option) => (
                  <option key={option.name} value={option.name} disabled={!!option.unavailable}>
                    {option.unavailable ? `${option.label} (not available)` : option.label}
                  </option>
                ))}
              </select>
            )}
            {mode === "create" && !readOnly ? <ContinueButton what="integration type" formAction="/destinations/add" /> : null}
          </div>
          {mode === "create" && unavailableReasons.length ? (
            <p id="destination-type-unavailable" className="mt-1 text-xs text-slate-600">
              {unavailableReasons.join(" ")}
            </p>
          ) : null}
          {mode === "edit" ? (
            <p id="destination-type-locked" className="mt-1 text-xs text-slate-600">
              The type of a destination cannot be changed.
            </p>
          ) : null}
        </Field>
      </section>

      {manifest && Setup ? <Setup {...setupProps} locked={locked} /> : null}
      {manifest && !Setup ? (
        <GenericSetup
          {...setupProps}
          locked={readOnly || mode === "edit" ? true : undefined}
          busy={busyIntent === "instructions"}
          secret={() => readValues(formRef.current, {})[manifest.secretFields[0] ?? ""] ?? ""}
        />
      ) : null}

      {showTest ? (
        <section className="card flex flex-col gap-3 p-6 sm:flex-row sm:items-center sm:justify-between" aria-live="polite">
          <div className="text-sm">
            {props.test && sameValues ? (
              <p className={props.test.ok ? "font-medium text-green-800" : "font-medium text-red-800"}>{props.test.message}</p>
            ) : (
              <p className="text-slate-600">
                {mode === "edit" && !settingsChanged
                  ? (setup.changeHint ?? "Test the connection again after changing these settings.")
                  : "Test the connection with these values before you save."}
              </p>
            )}
          </div>
          <button type="submit" name="intent" value="test" className="btn-secondary shrink-0" disabled={busyIntent === "test"}>
            {busyIntent === "test" ? "Testing..." : testLabel}
          </button>
        </section>
      ) : null}

      {tested && props.test?.token ? (
        <>
          <input type="hidden" name="validation_token" value={props.test.token} />
          {props.test.credentialId && !setup.showsCredential ? <input type="hidden" name="credential_id" value={props.test.credentialId} /> : null}
        </>
      ) : null}

      {readOnly ? null : (
        <div className="flex items-center justify-end gap-3">
          <Link to={props.cancelTo ?? "/destinations"} className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" name="intent" value={mode === "create" ? "create" : "update"} className="btn-primary" disabled={!canSubmit || busyIntent === "create" || busyIntent === "update"}>
            {mode === "create" ? (busyIntent === "create" ? "Creating..." : "Create Destination") : busyIntent === "update" ? "Updating..." : "Update Destination"}
          </button>
        </div>
      )}
    </Form>
  );
}
