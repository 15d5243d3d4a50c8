import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useState } from "react";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { DESTINATION_MESSAGES as M, type IntegrationInstructions } from "@contract/destinations";
import { DestinationForm, fingerprint, schemaFor, type FormValues, type TestState } from "~/components/destination-form";
import { destinationManifest } from "~/integrations";
import { requireUser } from "~/services/session.server";
import { readForm } from "~/services/form.server";
import {
  createDestination,
  createBody,
  echoValues,
  formFields,
  grantSteps,
  instructionsBody,
  loadIntegrations,
  loadInstructions,
  loadServiceAccountSetup,
  testBody,
  testConnection,
  testFailureMessage,
} from "~/services/destinations.server";

export const meta: MetaFunction = () => [{ title: "Create Destination · Tributary" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  // The no-JS "Next" is a GET of the whole form: keep only name, description and type in the address.
  const kept = new URLSearchParams();
  for (const key of ["name", "description", "type"]) if (url.searchParams.get(key)) kept.set(key, url.searchParams.get(key)!);
  if ([...url.searchParams.keys()].some((key) => !kept.has(key))) throw redirect(`${url.pathname}${kept.size ? `?${kept}` : ""}`);
  const errors: string[] = [];
  const integrations = await loadIntegrations(request);
  if (!integrations.ok) errors.push(integrations.message);
  const options = integrations.ok ? integrations.data : [];
  const asked = url.searchParams.get("type");
  // A type that is not available on this server (offered disabled) is not chosen, even by its address.
  const type = asked && options.some((o) => o.name === asked && !o.unavailable) && destinationManifest(asked) ? asked : null;
  const defaults: FormValues = { name: url.searchParams.get("name") ?? "", description: url.searchParams.get("description") ?? "", type: type ?? "" };
  const setup = type ? await loadServiceAccountSetup(request, type, {}, (message) => `${M.integrationDetailsFetchFailed}. ${message}`) : { serviceAccount: null, instructions: null, errors: [] };
  errors.push(...setup.errors);
  return { integrations: options, type, defaults, serviceAccount: setup.serviceAccount, instructions: setup.instructions, errors };
}

const reply = (body: Record<string, unknown>, status = 400) => Response.json({ test: null, instructions: null, ...body }, { status });

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "create");
  const fields = formFields(formData);
  const type = fields.type ?? "";
  const manifest = destinationManifest(type);
  const secrets = [...(manifest?.secretFields ?? ["password"])];
  const values = echoValues(fields, secrets);
  const submission = parseWithZod(formData, { schema: schemaFor("create", intent) });
  if (submission.status !== "success" || !manifest) return reply({ result: submission.reply({ hideFields: secrets }), values });
  // What is posted to the backend is the parsed value (trimmed, checked), not the raw form.
  const parsed = submission.value as Record<string, string>;
  if (intent === "test") {
    const outcome = await testConnection(request, type, testBody(type, parsed));
    const test: TestState = outcome.ok
      ? { ok: true, message: outcome.data.message, token: outcome.data.validation_token, credentialId: outcome.data.credential_id, fingerprint: fingerprint(type, fields) }
      : { ok: false, message: testFailureMessage(outcome.message), fingerprint: fingerprint(type, fields) };
    // A service-account setup: the steps again, now naming what was tested.
    const steps = await grantSteps(request, type, parsed);
    return reply({ result: outcome.ok ? null : submission.reply({ formErrors: [test.message], hideFields: secrets }), values, test, instructions: steps }, outcome.ok ? 200 : 400);
  }
  if (intent === "instructions") {
    if (!manifest.needsConnectionTest) return reply({ result: submission.reply({ formErrors: [M.integrationDetailsFailed] }), values });
    const outcome = await loadInstructions(request, type, instructionsBody(type, parsed));
    if (!outcome.ok) return reply({ result: submission.reply({ formErrors: [`Unable to generate setup instructions. ${outcome.message}`] }), values });
    return reply({ result: null, values, instructions: outcome.data }, 200);
  }
  const outcome = await createDestination(request, createBody(type, parsed));
  if (!outcome.ok) {
    const message = outcome.status >= 500 ? M.createFailed : outcome.message;
    return reply({ result: submission.reply({ formErrors: [message], hideFields: secrets }), values });
  }
  return redirect("/destinations");
}

type ActionData = {
  result: Parameters<typeof DestinationForm>[0]["lastResult"];
  values: FormValues;
  test: TestState | null;
  instructions: IntegrationInstructions | null;
};

export default function CreateDestination() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const type = (actionData?.values.type as string | undefined) ?? data.type;
  // Generated SQL stays on screen while the connection is tested (a later answer without SQL keeps it).
  const [sql, setSql] = useState<{ type: string | null; instructions: IntegrationInstructions } | null>(null);
  if (actionData?.instructions?.sql && sql?.instructions !== actionData.instructions) setSql({ type, instructions: actionData.instructions });
  const keptSql = sql && sql.type === type ? sql.instructions : null;
  return (
    <div className="mx-auto max-w-3xl">
      <div className="mb-6 flex items-center gap-3">
        <Link to="/destinations" className="inline-flex h-9 w-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900" aria-label="Back to destinations">
          <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M19 12H5m6-6-6 6 6 6" />
          </svg>
        </Link>
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Create Destination</h1>
          <p className="mt-1 text-sm text-slate-600">Where your connectors deliver data: a bucket, a warehouse, or a folder on this server.</p>
        </div>
      </div>
      <DestinationForm
        key={type ?? "none"}
        mode="create"
        integrations={data.integrations}
        integration={type}
        defaults={{ ...data.defaults, ...(actionData?.values ?? {}) }}
        serviceAccount={data.serviceAccount}
        instructions={actionData?.instructions ?? keptSql ?? data.instructions}
        test={actionData?.test ?? null}
        lastResult={actionData?.result ?? null}
        errors={data.errors}
        action={type ? `/destinations/add?type=${encodeURIComponent(type)}` : "/destinations/add"}
      />
    </div>
  );
}
