import { useEffect, useMemo, useRef, useState } from "react";
import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import {
  checkSubForm,
  createDestinationSchema,
  DESTINATION_MESSAGES as M,
  destinationFieldsSchema,
  isGoogle,
  isSnowflake,
  sqlWithPassword,
  type IntegrationInstructions,
  type IntegrationOption,
} from "@contract/destinations";
import { CopyButton } from "./copy-button";
import { FormBanner } from "./form-banner";

/**
 * The destination form of spec §2/§4: name, description, integration type and
 * the type's sub-form (Cloud Storage / BigQuery, Snowflake warehouse or stage,
 * local). One plain HTML form: every button is a submit with an `intent`
 * (test, instructions, create/update), so it all works without JavaScript; the
 * type's "Next" is a GET that puts ?type= in the address. With JavaScript the
 * type switches in place, fields validate on blur, and Create stays disabled
 * until a successful test over exactly the current values (the server enforces
 * the same with a signed token). `readOnly` renders it prefilled and locked,
 * without page chrome or buttons, for embedding (template setup flow).
 */

export const FIELD_NAMES = [
  "name",
  "description",
  "type",
  "project_id",
  "bucket_name",
  "dataset_name",
  "permission_type",
  "service_account_email",
  "credential_id",
  "account",
  "user",
  "password",
  "warehouse",
  "database",
  "schema",
  "stage_name",
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export type FormValues = Partial<Record<FieldName, string>>;

/** The values a test covers, per integration: changing any of them resets the test. */
export const TESTED_FIELDS: Record<string, FieldName[]> = {
  storage: ["project_id", "bucket_name"],
  bigquery: ["project_id", "dataset_name", "permission_type"],
  snowflake: ["account", "user", "password", "warehouse", "database", "schema"],
  snowflake_stage: ["account", "user", "password", "database", "schema", "stage_name"],
};

/**
 * The tested values, password excluded: without JavaScript the password is not
 * sent back to the browser, so the page cannot compare it; with JavaScript an
 * edit of the password resets the test separately (and the server compares it
 * with the sealed one).
 */
export function fingerprint(integration: string | null | undefined, values: FormValues): string {
  const fields = integration ? (TESTED_FIELDS[integration] ?? []).filter((f) => f !== "password") : [];
  return JSON.stringify(fields.map((f) => (values[f] ?? "").trim().toLowerCase()));
}

/** The last connection test, as the action reported it. */
export interface TestState {
  ok: boolean;
  message: string;
  token?: string;
  credentialId?: string;
  /** fingerprint() of the values that were tested. */
  fingerprint: string;
}

export interface ServiceAccountView {
  email: string;
  credentialId: string;
}

/** Maps the form's `type` field to the contract's integration_name. */
const withIntegration = (value: unknown) =>
  value && typeof value === "object" ? { ...(value as Record<string, unknown>), integration_name: (value as Record<string, unknown>).type } : value;

export const createFormSchema = z.preprocess(withIntegration, createDestinationSchema);
export const testFormSchema = z.preprocess(
  withIntegration,
  destinationFieldsSchema.superRefine((v, ctx) => {
    if (!v.integration_name) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["type"], message: M.integration });
    checkSubForm(v, ctx, "test");
  }),
);
export const instructionsFormSchema = z.preprocess(withIntegration, destinationFieldsSchema);
export const editFormSchema = z.preprocess(
  withIntegration,
  destinationFieldsSchema.superRefine((v, ctx) => {
    if (!v.name) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["name"], message: M.name });
    if (isGoogle(v.integration_name)) checkSubForm(v, ctx, "create");
  }),
);
export const editTestFormSchema = z.preprocess(
  withIntegration,
  destinationFieldsSchema.superRefine((v, ctx) => {
    if (isGoogle(v.integration_name)) checkSubForm(v, ctx, "test");
  }),
);

export function schemaFor(mode: "create" | "edit", intent: string | null) {
  if (intent === "test") return mode === "create" ? testFormSchema : editTestFormSchema;
  if (intent === "instructions") return instructionsFormSchema;
  return mode === "create" ? createFormSchema : editFormSchema;
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- flips once after hydration, on purpose
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

function readValues(form: HTMLFormElement | null, fallback: FormValues): FormValues {
  if (!form) return fallback;
  const values: FormValues = {};
  for (const [key, value] of new FormData(form)) if (typeof value === "string" && (FIELD_NAMES as readonly string[]).includes(key)) values[key as FieldName] = value;
  return values;
}

function Field(props: {
  name: FieldName;
  label: string;
  defaultValue?: string;
  readOnly?: boolean;
  type?: string;
  hint?: React.ReactNode;
  error?: string | null;
  placeholder?: string;
  autoComplete?: string;
  onBlur?: () => void;
  children?: React.ReactNode;
  invalid?: boolean;
}) {
  const id = `destination-${props.name}`;
  const describedBy = [props.hint ? `${id}-hint` : null, props.error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {props.label}
      </label>
      {props.children ?? (
        <input
          id={id}
          name={props.name}
          type={props.type ?? "text"}
          defaultValue={props.defaultValue}
          readOnly={props.readOnly}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete ?? "off"}
          spellCheck={false}
          aria-invalid={props.invalid || props.error ? true : undefined}
          aria-describedby={describedBy}
          onBlur={props.onBlur}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 read-only:bg-slate-50 read-only:text-slate-700 focus:border-brand-500 focus:outline-none aria-invalid:border-red-500"
        />
      )}
      {props.hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

function Steps({ instructions }: { instructions: IntegrationInstructions }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h3 className="text-sm font-semibold text-slate-900">{instructions.title}</h3>
      <p className="mt-1 text-sm text-slate-600">{instructions.description}</p>
      <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-slate-700">
        {instructions.steps.map((step) => (
          <li key={step.title}>
            <span className="font-medium text-slate-900">{step.title}.</span> <span className="break-words">{step.description}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

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
  /** Edit: the stored values (a test is needed only when project, bucket or dataset differ from them). */
  original?: FormValues;
  /** Where Cancel goes. */
  cancelTo?: string;
}

export function DestinationForm(props: DestinationFormProps) {
  const { mode, integration, readOnly } = props;
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<FormValues>(props.defaults);
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const [attempted, setAttempted] = useState(false);
  /** The button of the last submit: fields revalidate on input by the same rules (test, instructions or save). */
  const lastIntent = useRef<string | null>(null);
  const [passwordEdited, setPasswordEdited] = useState(false);

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
  useEffect(() => setPasswordEdited(false), [props.test]);

  // The banner: the loader's problems, and the errors of the last submit (the browser's or the server's),
  // kept current as the fields are fixed. Errors found on blur before any submit stay by their field.
  const showFieldErrors = attempted || !!props.lastResult?.error;
  const bannerErrors = useMemo(() => {
    const list = [...(props.errors ?? []), ...(form.errors ?? [])];
    if (showFieldErrors) for (const messages of Object.values(form.allErrors)) list.push(...messages);
    return [...new Set(list)];
  }, [props.errors, form.errors, form.allErrors, showFieldErrors]);

  const google = isGoogle(integration ?? undefined);
  const snowflake = isSnowflake(integration ?? undefined);
  const sameValues = !!props.test && props.test.fingerprint === fingerprint(integration, values) && !passwordEdited;
  const tested = props.test?.ok === true && sameValues;
  // Edit: a test is needed only when project, bucket or dataset changed.
  const cloudChanged =
    mode === "edit" && google && (["project_id", "bucket_name", "dataset_name"] as const).some((f) => (values[f] ?? "").trim() !== ((props.original ?? props.defaults)[f] ?? "").trim());
  const needsTest = mode === "create" ? google || snowflake : cloudChanged;
  const canSubmit = !needsTest || tested;
  const stageError = fields.stage_name.errors?.[0] ?? null;

  const onChange = (event: React.FormEvent<HTMLFormElement>) => {
    if ((event.target as HTMLInputElement).name === "password") setPasswordEdited(true);
    setValues(readValues(formRef.current, props.defaults));
  };
  const changeType = (type: string) => {
    const current = readValues(formRef.current, props.defaults);
    const params = new URLSearchParams();
    if (current.name) params.set("name", current.name);
    if (current.description) params.set("description", current.description);
    if (type) params.set("type", type);
    submit(params, { method: "get", action: "/destinations/add", replace: true, preventScrollReset: true });
  };
  const testLabel = snowflake ? "Test Connection" : mode === "edit" ? "Reauthenticate" : "Authenticate";
  const sql = props.instructions?.sql ?? null;
  const locked = readOnly ? true : undefined;

  return (
    <Form method="post" action={props.action} ref={formRef} {...formProps} onSubmit={onSubmit} onChange={onChange} className="space-y-6" noValidate>
      <FormBanner errors={bannerErrors} />
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
        <Field name="type" label="Integration type" invalid={!!fields.integration_name?.errors}>
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
                id="destination-type"
                name="type"
                defaultValue={integration ?? ""}
                onChange={(event) => changeType(event.currentTarget.value)}
                className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:outline-none"
              >
                <option value="">Select an integration type</option>
                {props.integrations.map((option) => (
                  <option key={option.name} value={option.name}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
            {mode === "create" && !readOnly && !hydrated ? (
              <button type="submit" formMethod="get" formAction="/destinations/add" formNoValidate name="next" value="1" className="btn-secondary">
                Next
              </button>
            ) : null}
          </div>
          {mode === "edit" ? (
            <p id="destination-type-locked" className="mt-1 text-xs text-slate-600">
              The type of a destination cannot be changed.
            </p>
          ) : null}
        </Field>
      </section>

      {google ? (
        <section className="card space-y-5 p-6" aria-labelledby="google-heading">
          <h2 id="google-heading" className="text-base font-semibold text-slate-900">
            {integration === "storage" ? "Google Cloud Storage" : "BigQuery"}
          </h2>
          <Field name="project_id" label="GCP Project ID" defaultValue={props.defaults.project_id} readOnly={locked} invalid={!!fields.project_id.errors} placeholder="my-project-123" />
          {integration === "storage" ? (
            <Field name="bucket_name" label="Bucket name" defaultValue={props.defaults.bucket_name} readOnly={locked} invalid={!!fields.bucket_name.errors} placeholder="my-bucket" />
          ) : (
            <Field name="dataset_name" label="Dataset name" defaultValue={props.defaults.dataset_name} readOnly={locked} invalid={!!fields.dataset_name.errors} placeholder="analytics" />
          )}
          <input type="hidden" name="permission_type" value={props.defaults.permission_type ?? "dataset_write"} />
          {props.serviceAccount ? (
            <>
              <div>
                <label htmlFor="destination-service_account_email" className="block text-sm font-medium text-slate-800">
                  Service account e-mail
                </label>
                <div className="mt-1 flex gap-2">
                  <input
                    id="destination-service_account_email"
                    name="service_account_email"
                    readOnly
                    value={props.serviceAccount.email}
                    className="block w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-800"
                  />
                  <CopyButton text={() => props.serviceAccount!.email} />
                </div>
                <p className="mt-1 text-xs text-slate-600">Grant this account access as the steps below describe.</p>
              </div>
              {props.instructions ? <Steps instructions={props.instructions} /> : null}
              <Field name="credential_id" label="Credential ID" readOnly defaultValue={props.serviceAccount.credentialId} />
            </>
          ) : null}
        </section>
      ) : null}

      {snowflake ? (
        <section className="card space-y-5 p-6" aria-labelledby="snowflake-heading">
          <h2 id="snowflake-heading" className="text-base font-semibold text-slate-900">
            {integration === "snowflake" ? "Snowflake" : "Snowflake stage"}
          </h2>
          <input type="hidden" name="category" value={integration === "snowflake" ? "WAREHOUSE" : "STORAGE"} />
          <div className="grid gap-5 sm:grid-cols-2">
            <Field name="account" label="Account identifier" defaultValue={props.defaults.account} readOnly={locked} invalid={!!fields.account.errors} placeholder="myorg-myaccount" hint="As in myorg-myaccount.snowflakecomputing.com" />
            {integration === "snowflake" ? (
              <Field name="warehouse" label="Warehouse" defaultValue={props.defaults.warehouse} readOnly={locked} invalid={!!fields.warehouse.errors} placeholder="TRIBUTARY_WH" />
            ) : null}
            <Field name="database" label="Database" defaultValue={props.defaults.database} readOnly={locked} invalid={!!fields.database.errors} placeholder="RAW" />
            <Field name="schema" label="Schema" defaultValue={props.defaults.schema} readOnly={locked} invalid={!!fields.schema.errors} placeholder="MEETINGS" />
            <Field name="user" label="New username" defaultValue={props.defaults.user} readOnly={locked} invalid={!!fields.user.errors} placeholder="TRIBUTARY_USER" />
            {readOnly ? null : <Field name="password" label="Password" type="password" autoComplete="new-password" invalid={!!fields.password.errors} />}
            {integration === "snowflake_stage" ? (
              <Field
                name="stage_name"
                label="Stage name"
                defaultValue={props.defaults.stage_name}
                readOnly={locked}
                error={stageError}
                placeholder="TRIBUTARY_STAGE"
                hint={stageError ? undefined : "Letters, digits and _ only."}
              />
            ) : null}
          </div>
          {readOnly ? null : (
            <div className="flex flex-wrap gap-3">
              <button type="submit" name="intent" value="instructions" formNoValidate className="btn-secondary" disabled={busyIntent === "instructions"}>
                {busyIntent === "instructions" ? "Generating..." : "Generate Instructions"}
              </button>
            </div>
          )}
          {props.instructions && sql ? (
            <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">
              <div className="flex items-start justify-between gap-3">
                <div>
                  <h3 className="text-sm font-semibold text-slate-900">{props.instructions.title}</h3>
                  <p className="mt-1 text-sm text-slate-600">{props.instructions.description}</p>
                </div>
                <CopyButton label="Copy SQL" text={() => sqlWithPassword(sql, readValues(formRef.current, {}).password ?? "")} />
              </div>
              <pre tabIndex={0} className="mt-3 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100" aria-label="Setup SQL">
                <code>{sql}</code>
              </pre>
            </div>
          ) : null}
        </section>
      ) : null}

      {integration === "local" ? (
        <section className="card space-y-2 p-6" aria-labelledby="local-heading">
          <h2 id="local-heading" className="text-base font-semibold text-slate-900">
            Local folder
          </h2>
          <p className="text-sm text-slate-600">
            Files land in a folder of this server's data directory, laid out as in a bucket, and rows in an embedded DuckDB warehouse next to them that
            transforms can query. No account or test is needed.
          </p>
        </section>
      ) : null}

      {(google || snowflake) && !readOnly && (mode === "create" || google) ? (
        <section className="card flex flex-col gap-3 p-6 sm:flex-row sm:items-center sm:justify-between" aria-live="polite">
          <div className="text-sm">
            {props.test && sameValues ? (
              <p className={props.test.ok ? "font-medium text-green-800" : "font-medium text-red-800"}>{props.test.message}</p>
            ) : (
              <p className="text-slate-600">
                {mode === "edit" && !cloudChanged
                  ? "Reauthenticate after changing the project, bucket or dataset."
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
          {props.test.credentialId && !google ? <input type="hidden" name="credential_id" value={props.test.credentialId} /> : null}
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
