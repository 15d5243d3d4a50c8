import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CONNECTOR_MESSAGES as M, updateConnectorBodySchema } from "@contract/connectors";
import { ErrorBlock } from "~/components/ui/error-block";
import { FormBanner } from "~/components/ui/form-banner";
import { BackLink } from "~/components/ui/back-link";
import { fieldClasses } from "~/components/ui/field";
import { requireUser } from "~/services/session.server";
import { updateConnector, loadAllDestinations, loadConnector, loadLookbackOptions, loadSources } from "~/services/connectors.server";
import { readForm } from "~/services/form.server";
import { isRecordId, pageData } from "~/services/records.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Update ${data?.connector?.name ?? "Connector"} · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const outcome = isRecordId(params.id) ? await loadConnector(request, params.id) : ({ ok: false, status: 404 } as const);
  if (!outcome.ok) {
    const notFound = outcome.status === 404;
    return pageData({ connector: null, error: notFound ? M.notFound : M.fetchConnectorFailed, sources: [], destinations: [], lookbackOptions: [], loadErrors: [] as string[] }, notFound);
  }
  const [sources, destinations, lookbacks] = await Promise.all([loadSources(request), loadAllDestinations(request), loadLookbackOptions(request)]);
  const loadErrors = [sources, destinations, lookbacks].flatMap((o) => (o.ok ? [] : [o.message]));
  return pageData(
    {
      connector: outcome.data,
      error: null,
      sources: sources.ok ? sources.data : [],
      destinations: destinations.ok ? destinations.data : [],
      lookbackOptions: lookbacks.ok ? lookbacks.data : [],
      loadErrors,
    },
    false,
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readForm(request);
  const values = Object.fromEntries(["name", "description", "source_id", "destination_id", "frequency", "lookback_days"].map((k) => [k, String(form.get(k) ?? "")]));
  const parsed = updateConnectorBodySchema.safeParse(values);
  if (!parsed.success) {
    const errors = [...new Set(parsed.error.issues.map((i) => i.message))];
    return Response.json({ errors, values }, { status: 400 });
  }
  const id = encodeURIComponent(params.id ?? "");
  const outcome = await updateConnector(request, params.id ?? "", parsed.data);
  if (!outcome.ok) return Response.json({ errors: [outcome.status >= 500 ? M.updateFailed : `${M.updateFailed} ${outcome.message}`], values }, { status: outcome.status === 404 ? 404 : 400 });
  return redirect(`/connectors/details/${id}`);
}

export default function EditConnector() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<{ errors: string[]; values: Record<string, string> }>();
  const navigation = useNavigation();
  const connector = data.connector;
  if (!connector) {
    return (
      <div className="mx-auto max-w-3xl">
        <BackLink to="/connectors">Connectors</BackLink>
        <ErrorBlock message={data.error ?? M.fetchConnectorFailed} />
      </div>
    );
  }
  const v = actionData?.values ?? {
    name: connector.name,
    description: connector.description,
    source_id: connector.source_id,
    destination_id: connector.destination_ids[0] ?? "",
    frequency: connector.frequency,
    lookback_days: String(connector.lookback_days),
  };
  const busy = navigation.state === "submitting";
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to={`/connectors/details/${connector.id}`}>{connector.name}</BackLink>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">Update Connector</h1>
      <FormBanner errors={[...data.loadErrors, ...(actionData?.errors ?? [])]} />
      <Form method="post" className="card space-y-5 p-6" noValidate key={JSON.stringify(v)}>
        <div>
          <label htmlFor="name" className={fieldClasses.label}>
            Connector name
          </label>
          <input id="name" name="name" type="text" defaultValue={v.name} className={fieldClasses.input} autoComplete="off" required />
        </div>
        <div>
          <label htmlFor="description" className={fieldClasses.label}>
            Description
          </label>
          <textarea id="description" name="description" rows={3} defaultValue={v.description} className={fieldClasses.input} required />
        </div>
        <div>
          <label htmlFor="source_id" className={fieldClasses.label}>
            Source
          </label>
          <select id="source_id" name="source_id" defaultValue={v.source_id} className={fieldClasses.input} required>
            <option value="">Select a source</option>
            {data.sources.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.integration_label})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="destination_id" className={fieldClasses.label}>
            Destination
          </label>
          <select id="destination_id" name="destination_id" defaultValue={v.destination_id} className={fieldClasses.input} required>
            <option value="">Select a destination</option>
            {data.destinations.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({d.integration_label})
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor="frequency" className={fieldClasses.label}>
              Frequency
            </label>
            <input id="frequency" name="frequency" type="text" list="frequency-options" defaultValue={v.frequency} className={fieldClasses.input} autoComplete="off" required />
            <datalist id="frequency-options">
              <option value="daily" />
              <option value="hourly" />
            </datalist>
            <p className="mt-1 text-xs text-slate-500">daily or hourly</p>
          </div>
          <div>
            <label htmlFor="lookback_days" className={fieldClasses.label}>
              Lookback days
            </label>
            <select id="lookback_days" name="lookback_days" defaultValue={v.lookback_days} className={fieldClasses.input}>
              {data.lookbackOptions.map((o) => (
                <option key={o.value} value={String(o.value)}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Updating..." : "Update Connector"}
          </button>
        </div>
      </Form>
    </div>
  );
}
