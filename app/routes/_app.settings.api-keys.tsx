import { useEffect, useRef } from "react";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { API_KEY_MESSAGES as M, API_KEY_NAME_MAX, API_KEY_SCOPES, apiKeyFormSchema, endOfDayIn, type ApiKey, type CreatedApiKey } from "@contract/api-keys";
import { apiKeyScopeLabel } from "@contract/labels";
import { ApiKeyList } from "~/components/api-key-list";
import { readTimeZone } from "~/components/date-time";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { CopyButton } from "~/components/ui/copy-button";
import { ErrorBlock } from "~/components/ui/error-block";
import { Field } from "~/components/ui/field";
import { FormBanner } from "~/components/ui/form-banner";
import { createApiKey, loadApiKeys, revokeApiKey } from "~/services/api-keys.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "API keys · Tributary" }];

/** A new key's token is on the page once: never kept by a browser's or a proxy's cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const outcome = await loadApiKeys(request);
  const query = new URL(request.url).searchParams;
  return {
    keys: outcome.ok ? outcome.data : null,
    error: outcome.ok ? null : M.fetchFailed,
    revokeId: query.get("revoke"),
    revoked: query.get("revoked") === "1",
  };
}

type ActionData = { result?: SubmissionResult<string[]>; created?: CreatedApiKey; revokeError?: string; revokeId?: string };

const SCOPE_HINTS: Record<(typeof API_KEY_SCOPES)[number], string> = {
  read: "It can read your sources, destinations, connectors, transforms and runs, and change nothing.",
  read_write: "It can also create, change and delete them, and start runs.",
};

/** Create (the token comes back in this answer only: it is never in a URL) or, from the confirmation, revoke. */
export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readForm(request);
  if (form.get("intent") === "revoke") {
    const id = String(form.get("id") ?? "");
    const revoked = await revokeApiKey(request, id);
    if (revoked.ok) return redirect("/settings/api-keys?revoked=1");
    const message = revoked.status >= 500 ? M.revokeFailed : revoked.message;
    return Response.json({ revokeError: message, revokeId: id } satisfies ActionData, { status: revoked.status === 404 ? 404 : 400 });
  }
  const submission = parseWithZod(form, { schema: apiKeyFormSchema });
  if (submission.status !== "success") return Response.json({ result: submission.reply() } satisfies ActionData, { status: 400 });
  const { name, scope, expires_on } = submission.value;
  const expiresAt = expires_on ? endOfDayIn(expires_on, readTimeZone(request.headers.get("cookie"))) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    return Response.json({ result: submission.reply({ fieldErrors: { expires_on: [M.expiryPast] } }) } satisfies ActionData, { status: 400 });
  }
  const created = await createApiKey(request, { name, scope, expires_at: expiresAt?.toISOString() ?? null });
  if (!created.ok) {
    const message = created.status >= 500 ? M.createFailed : created.message;
    const reply = message === M.expiryPast || message === M.expiryInvalid ? submission.reply({ fieldErrors: { expires_on: [message] } }) : submission.reply({ formErrors: [message] });
    return Response.json({ result: reply } satisfies ActionData, { status: 400 });
  }
  return Response.json({ created: created.data } satisfies ActionData, { headers: { "Cache-Control": "no-store" } });
}

/** The new key's token, once: selectable without JavaScript, with a copy button with it. */
function NewToken({ created }: { created: CreatedApiKey }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [created.token]);
  return (
    <section ref={ref} tabIndex={-1} role="status" aria-labelledby="new-key" className="mb-8 rounded-xl border border-green-200 bg-green-50 p-5 outline-none" data-testid="new-api-key">
      <h2 id="new-key" className="text-base font-semibold text-green-900">
        {`${M.created}: ${created.key.name}`}
      </h2>
      <p className="mt-1 text-sm text-green-900">{M.shownOnce}</p>
      <label htmlFor="new-api-key-token" className="mt-4 block text-sm font-medium text-slate-800">
        Your new key ({apiKeyScopeLabel(created.key.scope).toLowerCase()})
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
        {/* A text area: the whole token shows, wrapped, at a phone's width too (one line where it fits). */}
        <textarea
          id="new-api-key-token"
          readOnly
          rows={2}
          value={created.token}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full min-w-0 resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 field-sizing-content"
        />
        <div className="shrink-0">
          <CopyButton text={() => created.token} label="Copy key" />
        </div>
      </div>
      <p className="mt-3 text-xs text-slate-700">
        Send it with each request as a header: <code className="rounded bg-white px-1">Authorization: Bearer &lt;your key&gt;</code>
      </p>
    </section>
  );
}

function CreateForm({ result, createdId }: { result: SubmissionResult<string[]> | null; createdId: string | null }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "api-key-create",
    lastResult: result,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: apiKeyFormSchema }),
  });
  const typed = (name: "name" | "scope" | "expires_on") => {
    const value = result?.initialValue?.[name];
    return typeof value === "string" ? value : undefined;
  };
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const banner = [...(form.errors ?? []), ...(["name", "scope", "expires_on"] as const).flatMap((n) => fields[n].errors ?? [])];
  const scopeError = fields.scope.errors?.[0];
  return (
    <section aria-labelledby="create-key" className="mt-8">
      <h2 id="create-key" className="mb-3 text-lg font-semibold text-slate-900">
        Create a key
      </h2>
      <FormBanner errors={banner} focusKey={result} />
      <Form method="post" {...getFormProps(form)} noValidate className="card space-y-5 p-6" key={createdId ?? "new"}>
        <Field name="name" label="Name" idPrefix="api-key" defaultValue={typed("name")} error={fields.name.errors?.[0]} hint={`What the key is for, such as "Nightly report". At most ${API_KEY_NAME_MAX} characters.`} />
        <fieldset aria-describedby={scopeError ? "api-key-scope-error" : undefined}>
          <legend className="text-sm font-medium text-slate-800">Access</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {API_KEY_SCOPES.map((scope) => (
              <label key={scope} className="flex cursor-pointer gap-3 rounded-lg border border-slate-200 p-3 hover:bg-slate-50 has-checked:border-brand-500 has-checked:bg-brand-50">
                <input type="radio" name="scope" value={scope} defaultChecked={typed("scope") === scope} aria-invalid={scopeError ? true : undefined} className="mt-0.5" />
                <span>
                  <span className="block text-sm font-medium text-slate-900">{apiKeyScopeLabel(scope)}</span>
                  <span className="block text-xs text-slate-600">{SCOPE_HINTS[scope]}</span>
                </span>
              </label>
            ))}
          </div>
          {scopeError ? (
            <p id="api-key-scope-error" className="mt-1 text-sm text-red-700">
              {scopeError}
            </p>
          ) : null}
        </fieldset>
        <div className="sm:max-w-xs">
          <Field
            name="expires_on"
            label="Expires on (optional)"
            type="date"
            idPrefix="api-key"
            defaultValue={typed("expires_on")}
            error={fields.expires_on.errors?.[0]}
            hint="The key stops working at the end of this day, in your time zone. Leave it empty for a key that does not expire."
          />
        </div>
        <div className="flex justify-end border-t border-slate-200 pt-5">
          <button type="submit" name="intent" value="create" className="btn-primary" disabled={busy}>
            {busy ? "Creating..." : "Create key"}
          </button>
        </div>
      </Form>
    </section>
  );
}

export default function ApiKeysPage() {
  const { keys, error, revokeId, revoked } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const created = actionData?.created ?? null;
  const confirming: ApiKey | undefined = keys?.find((k) => k.id === (actionData?.revokeId ?? revokeId) && k.status !== "revoked");
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">API keys</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        A key lets your own programs and scripts use Tributary&apos;s API in your name. Give each program its own key, with only the access it needs, and revoke a key you no
        longer use.
      </p>
      {created ? <NewToken created={created} /> : null}
      {revoked && !confirming ? (
        <p role="status" className="mb-6 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
          {M.revoked}. Programs using it can no longer reach your data.
        </p>
      ) : null}
      <section aria-labelledby="your-keys">
        <h2 id="your-keys" className="mb-3 text-lg font-semibold text-slate-900">
          Your keys
        </h2>
        {keys ? <ApiKeyList keys={keys} /> : <ErrorBlock message={error ?? M.fetchFailed} />}
      </section>
      {keys ? <CreateForm result={actionData?.result ?? null} createdId={created?.key.id ?? null} /> : null}
      {confirming ? (
        <ConfirmDialog
          title="Revoke API key?"
          body={
            <>
              <strong className="font-semibold text-slate-900">{confirming.name}</strong> ({confirming.prefix}…) stops working at once: programs using it are refused from then on.
              This cannot be undone.
            </>
          }
          confirmLabel="Revoke"
          busyLabel="Revoking..."
          cancelTo="/settings/api-keys"
          hidden={{ intent: "revoke", id: confirming.id }}
          error={actionData?.revokeError ?? null}
        />
      ) : null}
    </div>
  );
}
