import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { DESTINATION_MESSAGES as M, type IntegrationInstructions } from "@contract/destinations";
import { DestinationForm, fingerprint, schemaFor, type FormValues, type ServiceAccountView, type TestState } from "~/components/destination-form";
import { ErrorBlock } from "~/components/ui/error-block";
import { destinationManifest, destinationSetup } from "~/integrations";
import { requireUser } from "~/services/session.server";
import {
  updateDestination,
  destinationValues,
  echoValues,
  formFields,
  loadDestination,
  loadServiceAccountSetup,
  testBody,
  testConnection,
  testFailureMessage,
  updateBody,
} from "~/services/destinations.server";
import { readForm } from "~/services/form.server";
import { isRecordId, pageData } from "~/services/records.server";

export const meta: MetaFunction = () => [{ title: "Update Destination · Tributary" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const outcome = isRecordId(params.id) ? await loadDestination(request, params.id) : ({ ok: false, status: 404 } as const);
  if (!outcome.ok) {
    const notFound = outcome.status === 404;
    return pageData(
      { destination: null, error: notFound ? M.notFound : M.fetchOneFailed, defaults: {} as FormValues, serviceAccount: null as ServiceAccountView | null, instructions: null as IntegrationInstructions | null, errors: [] as string[] },
      notFound,
    );
  }
  const destination = outcome.data;
  const defaults: FormValues = destinationValues(destination);
  const setup = await loadServiceAccountSetup(request, destination.integration_name, defaults, () => "Failed to load integration details for this destination.");
  return pageData({ destination, error: null as string | null, defaults, serviceAccount: setup.serviceAccount, instructions: setup.instructions, errors: setup.errors }, false);
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "update");
  const fields = formFields(formData);
  const type = fields.type ?? "";
  const secrets = [...(destinationManifest(type)?.secretFields ?? ["password"])];
  const values = echoValues(fields, secrets);
  const submission = parseWithZod(formData, { schema: schemaFor("edit", intent) });
  if (submission.status !== "success") return Response.json({ result: submission.reply({ hideFields: secrets }), values, test: null }, { status: 400 });
  // What is posted to the backend is the parsed value (trimmed, checked), not the raw form.
  const parsed = submission.value as Record<string, string>;
  if (intent === "test") {
    if (!destinationSetup(type).editable) return Response.json({ result: submission.reply({ formErrors: [M.integrationDetailsFailed] }), values, test: null }, { status: 400 });
    const outcome = await testConnection(request, type, testBody(type, parsed));
    const test: TestState = outcome.ok
      ? { ok: true, message: outcome.data.message, token: outcome.data.validation_token, credentialId: outcome.data.credential_id, fingerprint: fingerprint(type, fields) }
      : { ok: false, message: testFailureMessage(outcome.message), fingerprint: fingerprint(type, fields) };
    return Response.json({ result: outcome.ok ? null : submission.reply({ formErrors: [test.message], hideFields: secrets }), values, test }, { status: outcome.ok ? 200 : 400 });
  }
  const outcome = await updateDestination(request, id, updateBody(type, parsed));
  if (!outcome.ok) {
    const message = outcome.status >= 500 ? M.updateFailed : outcome.message;
    return Response.json({ result: submission.reply({ formErrors: [message], hideFields: secrets }), values, test: null }, { status: outcome.status === 404 ? 404 : 400 });
  }
  return redirect(`/destinations/details/${encodeURIComponent(id)}`);
}

type ActionData = { result: Parameters<typeof DestinationForm>[0]["lastResult"]; values: FormValues; test: TestState | null };

export default function EditDestination() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const destination = data.destination;
  return (
    <div className="mx-auto max-w-3xl">
      <div className="mb-6 flex items-center gap-3">
        <Link
          to={destination ? `/destinations/details/${destination.id}` : "/destinations"}
          className="inline-flex h-9 w-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900"
          aria-label="Back"
        >
          <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M19 12H5m6-6-6 6 6 6" />
          </svg>
        </Link>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Update Destination</h1>
      </div>
      {destination ? (
        <DestinationForm
          mode="edit"
          integrations={[{ name: destination.integration_name, label: destination.integration_label }]}
          integration={destination.integration_name}
          defaults={{ ...data.defaults, ...(actionData?.values ?? {}) }}
          original={data.defaults}
          serviceAccount={data.serviceAccount}
          instructions={data.instructions}
          test={actionData?.test ?? null}
          lastResult={actionData?.result ?? null}
          errors={data.errors}
          cancelTo={`/destinations/details/${destination.id}`}
        />
      ) : (
        <ErrorBlock message={data.error ?? M.fetchOneFailed} />
      )}
    </div>
  );
}
