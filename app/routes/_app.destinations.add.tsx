import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useState } from "react";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { DESTINATION_MESSAGES as M, integrationLabel, isGoogle, isSnowflake, type IntegrationInstructions } from "@contract/destinations";
import { DestinationForm, fingerprint, schemaFor, type FormValues, type ServiceAccountView, type TestState } from "~/components/destination-form";
import { requireUser } from "~/services/session.server";
import { readForm } from "~/services/form.server";
import { callBackend, echoValues, formFields, loadInstructions, loadIntegrations, loadServiceAccount, testBody, testConnection, testFailureMessage } from "~/services/destinations.server";

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
  const type = asked && options.some((o) => o.name === asked) ? asked : null;
  const defaults: FormValues = { name: url.searchParams.get("name") ?? "", description: url.searchParams.get("description") ?? "", type: type ?? "" };
  let serviceAccount: ServiceAccountView | null = null;
  let instructions: IntegrationInstructions | null = null;
  if (type === "storage" || type === "bigquery") {
    const account = await loadServiceAccount(request, type);
    if (account.ok) {
      serviceAccount = { email: account.data.service_account_email, credentialId: account.data.credential_id };
      const steps = await loadInstructions(request, type, { category: type === "bigquery" ? "WAREHOUSE" : "STORAGE", permission_type: "dataset_write" });
      if (steps.ok) instructions = steps.data;
      else errors.push("Unable to load instructions.");
    } else {
      errors.push(`${M.serviceAccountMissing} ${account.message}`);
    }
  }
  return { integrations: options, type, defaults, serviceAccount, instructions, errors };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "create");
  const fields = formFields(formData);
  const type = fields.type ?? "";
  const values = echoValues(fields);
  const submission = parseWithZod(formData, { schema: schemaFor("create", intent) });
  if (submission.status !== "success") {
    return Response.json({ result: submission.reply({ hideFields: ["password"] }), values, test: null, instructions: null }, { status: 400 });
  }
  if (intent === "test") {
    const outcome = await testConnection(request, type, testBody(type, fields, integrationLabel(type)));
    const test: TestState = outcome.ok
      ? { ok: true, message: outcome.data.message, token: outcome.data.validation_token, credentialId: outcome.data.credential_id, fingerprint: fingerprint(type, fields) }
      : { ok: false, message: testFailureMessage(outcome.message), fingerprint: fingerprint(type, fields) };
    // Cloud: the steps again, now naming the project and the bucket or dataset that were tested.
    const steps = isGoogle(type)
      ? await loadInstructions(request, type, { project_id: fields.project_id, bucket_name: fields.bucket_name, dataset_name: fields.dataset_name, permission_type: fields.permission_type })
      : null;
    const instructions = steps?.ok ? steps.data : null;
    return Response.json({ result: outcome.ok ? null : submission.reply({ formErrors: [test.message], hideFields: ["password"] }), values, test, instructions }, { status: outcome.ok ? 200 : 400 });
  }
  if (intent === "instructions") {
    if (!isSnowflake(type)) return Response.json({ result: submission.reply({ formErrors: [M.integrationDetailsFailed] }), values, test: null, instructions: null }, { status: 400 });
    const outcome = await loadInstructions(request, type, {
      category: type === "snowflake" ? "WAREHOUSE" : "STORAGE",
      account: fields.account,
      user: fields.user,
      warehouse: type === "snowflake" ? fields.warehouse : undefined,
      database: fields.database,
      schema: fields.schema,
      stage_name: type === "snowflake_stage" ? fields.stage_name : undefined,
    });
    if (!outcome.ok) return Response.json({ result: submission.reply({ formErrors: [`Unable to generate setup instructions. ${outcome.message}`] }), values, test: null, instructions: null }, { status: 400 });
    return Response.json({ result: null, values, test: null, instructions: outcome.data });
  }
  const body: Record<string, unknown> = { ...fields, integration_name: type, integration_label: integrationLabel(type) };
  delete body.type;
  delete body.intent;
  if (isGoogle(type) || isSnowflake(type)) body.category = type === "snowflake" || type === "bigquery" ? "WAREHOUSE" : "STORAGE";
  const outcome = await callBackend(request, "/destinations/create", { method: "POST", json: body }, M.createFailed);
  if (!outcome.ok) {
    const message = outcome.status >= 500 ? M.createFailed : outcome.message;
    return Response.json({ result: submission.reply({ formErrors: [message], hideFields: ["password"] }), values, test: null, instructions: null }, { status: 400 });
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
  // The generated SQL stays on screen while the connection is tested (a later answer without SQL keeps it).
  const [sql, setSql] = useState<{ type: string | null; instructions: IntegrationInstructions } | null>(null);
  if (actionData?.instructions?.sql && sql?.instructions !== actionData.instructions) setSql({ type, instructions: actionData.instructions });
  const snowflakeInstructions = sql && sql.type === type ? sql.instructions : null;
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
        instructions={isGoogle(type ?? undefined) ? (actionData?.instructions ?? data.instructions) : (actionData?.instructions ?? snowflakeInstructions)}
        test={actionData?.test ?? null}
        lastResult={actionData?.result ?? null}
        errors={data.errors}
        action={type ? `/destinations/add?type=${encodeURIComponent(type)}` : "/destinations/add"}
      />
    </div>
  );
}
