import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { CONNECTOR_MESSAGES as M, updateConnectorBodySchema, type Connector, type LookbackOption } from "@contract/connectors";
import type { Destination } from "@contract/destinations";
import type { Source } from "@contract/sources";
import { controlClasses, controlProps, DescriptionField, DestinationChoices, firstError, LookbackField, NameField, SourceOptions } from "~/components/connector-fields";
import { ErrorBlock } from "~/components/ui/error-block";
import { FormBanner } from "~/components/ui/form-banner";
import { BackLink } from "~/components/ui/back-link";
import { Field } from "~/components/ui/field";
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
  const id = params.id ?? "";
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: updateConnectorBodySchema });
  if (submission.status !== "success") return Response.json({ result: submission.reply() }, { status: 400 });
  const outcome = await updateConnector(request, id, submission.value);
  if (!outcome.ok) {
    const message = outcome.status >= 500 ? M.updateFailed : `${M.updateFailed} ${outcome.message}`;
    return Response.json({ result: submission.reply({ formErrors: [message] }) }, { status: outcome.status === 404 ? 404 : 400 });
  }
  return redirect(`/connectors/details/${encodeURIComponent(id)}`);
}

export default function EditConnector() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<{ result: SubmissionResult<string[]> }>();
  const connector = data.connector;
  if (!connector) {
    return (
      <div className="mx-auto max-w-3xl">
        <BackLink to="/connectors">Connectors</BackLink>
        <ErrorBlock message={data.error ?? M.fetchConnectorFailed} />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to={`/connectors/details/${connector.id}`}>{connector.name}</BackLink>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">Update Connector</h1>
      <EditForm
        connector={connector}
        sources={data.sources}
        destinations={data.destinations}
        lookbackOptions={data.lookbackOptions}
        loadErrors={data.loadErrors}
        lastResult={actionData?.result ?? null}
      />
    </div>
  );
}

/**
 * The Update Connector form (spec §5 "Connector edit", frequency as free text). Where the spec's single destination
 * select would drop the user's data, every destination of the connector is shown and can be changed (issue 35 item
 * 2), with the create form's ticks; the description is optional, as on create. It starts from the stored connector;
 * after a refused post, from what was sent (conform's reply carries it).
 */
const checkedDestinations = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : typeof value === "string" ? [value] : []);

function EditForm(props: {
  connector: Connector;
  sources: Source[];
  destinations: Destination[];
  lookbackOptions: LookbackOption[];
  loadErrors: string[];
  lastResult: SubmissionResult<string[]> | null;
}) {
  const { connector } = props;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "connector-edit",
    lastResult: props.lastResult,
    defaultValue: {
      name: connector.name,
      description: connector.description,
      source_id: connector.source_id,
      destination_ids: connector.destination_ids,
      frequency: connector.frequency,
      lookback_days: String(connector.lookback_days),
    },
    constraint: getZodConstraint(updateConnectorBodySchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: updateConnectorBodySchema }),
  });
  const initial = (field: { initialValue?: unknown }) => (typeof field.initialValue === "string" ? field.initialValue : "");
  const errors = {
    name: firstError(fields.name.errors),
    description: firstError(fields.description.errors),
    source_id: firstError(fields.source_id.errors),
    destination_ids: firstError(fields.destination_ids.errors),
    frequency: firstError(fields.frequency.errors),
    lookback_days: firstError(fields.lookback_days.errors),
  };
  const banner = [...new Set([...props.loadErrors, ...(form.errors ?? []), ...Object.values(form.allErrors).flat()])];
  const busy = navigation.state === "submitting";
  return (
    <>
      <FormBanner errors={banner} />
      <Form method="post" {...getFormProps(form)} className="card space-y-5 p-6">
        <NameField defaultValue={initial(fields.name)} error={errors.name} />
        <DescriptionField defaultValue={initial(fields.description)} error={errors.description} />
        <Field idPrefix="connector" name="source_id" label="Source" error={errors.source_id}>
          <select {...controlProps("source_id", errors.source_id)} defaultValue={initial(fields.source_id)} className={controlClasses}>
            <SourceOptions sources={props.sources} />
          </select>
        </Field>
        <DestinationChoices destinations={props.destinations} checked={checkedDestinations(fields.destination_ids.initialValue)} error={errors.destination_ids} empty={M.noDestinations} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field idPrefix="connector" name="frequency" label="Frequency" hint="daily or hourly" error={errors.frequency}>
            <input {...controlProps("frequency", errors.frequency, true)} type="text" list="frequency-options" defaultValue={initial(fields.frequency)} className={controlClasses} autoComplete="off" />
            <datalist id="frequency-options">
              <option value="daily" />
              <option value="hourly" />
            </datalist>
          </Field>
          <LookbackField options={props.lookbackOptions} defaultValue={initial(fields.lookback_days)} error={errors.lookback_days} />
        </div>
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Updating..." : "Update Connector"}
          </button>
        </div>
      </Form>
    </>
  );
}
