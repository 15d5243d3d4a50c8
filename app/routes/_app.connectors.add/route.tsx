import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useRef } from "react";
import { CONNECTOR_MESSAGES as M, FREQUENCIES } from "@contract/connectors";
import type { Destination } from "@contract/destinations";
import type { Source } from "@contract/sources";
import { FormBanner } from "~/components/ui/form-banner";
import { useHydrated } from "remix-utils/use-hydrated";
import { BackLink } from "~/components/ui/back-link";
import { fieldClasses } from "~/components/ui/field";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { createConnector, loadCompatibleDestinations, loadLookbackOptions, loadPlatforms, loadSources, type LookbackOption } from "~/services/connectors.server";

export const meta: MetaFunction = () => [{ title: "Create Connector · Tributary" }];

interface Values {
  name: string;
  description: string;
  source: string;
  platform: string;
  frequency: string;
  lookback_days: string;
  destination_ids: string[];
}

interface PageData {
  values: Values;
  sources: Source[];
  lookbackOptions: LookbackOption[];
  /** null until a source is chosen. */
  platforms: string[] | null;
  /** null until a platform is chosen. */
  destinations: Destination[] | null;
  loadErrors: string[];
  errors: string[];
}

function readValues(params: URLSearchParams | FormData): Values & { prev_source: string | null; prev_platform: string | null } {
  const text = (key: string) => {
    const v = params.get(key);
    return typeof v === "string" ? v : "";
  };
  const prev = (key: string) => (params.has(key) ? text(key) : null);
  return {
    name: text("name"),
    description: text("description"),
    source: text("source"),
    platform: text("platform"),
    frequency: text("frequency"),
    lookback_days: text("lookback_days"),
    destination_ids: params.getAll("destination_ids").filter((v): v is string => typeof v === "string" && v !== ""),
    prev_source: prev("prev_source"),
    prev_platform: prev("prev_platform"),
  };
}

/**
 * The cascade of spec §4: source → platforms → platform → destinations → ticks.
 * Changing the source clears platform and ticks; changing the platform clears ticks.
 */
async function cascade(request: Request, input: ReturnType<typeof readValues>): Promise<PageData> {
  const { prev_source, prev_platform, ...values } = input;
  const loadErrors: string[] = [];
  const [sources, lookbacks] = await Promise.all([loadSources(request), loadLookbackOptions(request)]);
  if (!sources.ok) loadErrors.push(sources.message);
  if (!lookbacks.ok) loadErrors.push(lookbacks.message);
  const lookbackOptions = lookbacks.ok ? lookbacks.data : [];
  if (!values.lookback_days && lookbackOptions[0]) values.lookback_days = String(lookbackOptions[0].value);
  if (prev_source !== null && prev_source !== values.source) {
    values.platform = "";
    values.destination_ids = [];
  } else if (prev_platform !== null && prev_platform !== values.platform) {
    values.destination_ids = [];
  }
  const source = sources.ok ? sources.data.find((s) => s.id === values.source) : undefined;
  if (!source) values.source = "";
  let platforms: string[] | null = null;
  let destinations: Destination[] | null = null;
  if (source) {
    const outcome = await loadPlatforms(request, source);
    if (outcome.ok) platforms = outcome.data.platforms;
    else loadErrors.push(outcome.message);
  }
  if (!platforms?.includes(values.platform)) values.platform = "";
  if (source && values.platform) {
    const outcome = await loadCompatibleDestinations(request, source.id, values.platform);
    if (outcome.ok) destinations = outcome.data;
    else loadErrors.push(outcome.message);
  }
  values.destination_ids = values.destination_ids.filter((id) => destinations?.some((d) => d.id === id));
  return { values, sources: sources.ok ? sources.data : [], lookbackOptions, platforms, destinations, loadErrors, errors: [] };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return cascade(request, readValues(new URL(request.url).searchParams));
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readForm(request);
  const data = await cascade(request, { ...readValues(form), prev_source: null, prev_platform: null });
  const v = data.values;
  const ticked = readValues(form).destination_ids;
  const errors: string[] = [];
  if (!v.name.trim()) errors.push(M.nameRequired);
  if (!v.source) errors.push(M.sourceRequired);
  if (v.source && data.platforms?.length && !v.platform) errors.push(M.platformRequired);
  if (!v.frequency.trim()) errors.push(M.frequencyRequired);
  if (!v.lookback_days) errors.push(M.lookbackRequired);
  if (v.platform && data.destinations && data.destinations.length === 0) errors.push(M.noDestinationsForPlatform);
  else if (data.destinations?.length && ticked.length === 0) errors.push(M.destinationsRequired);
  if (errors.length === 0 && data.destinations) {
    const source = data.sources.find((s) => s.id === v.source);
    const chosen = data.destinations.filter((d) => ticked.includes(d.id));
    const missing = (source?.required_integration_categories ?? []).filter((c) => !chosen.some((d) => d.category.toUpperCase() === c.toUpperCase()));
    if (missing.length) errors.push(M.missingCategories(missing));
  }
  if (errors.length) return Response.json({ ...data, values: { ...v, destination_ids: ticked }, errors }, { status: 400 });
  const outcome = await createConnector(request, {
    name: v.name.trim(),
    description: v.description.trim(),
    frequency: v.frequency.trim(),
    source_id: v.source,
    platform: v.platform,
    destination_ids: ticked,
    lookback_days: Number(v.lookback_days),
  });
  if (!outcome.ok) return Response.json({ ...data, values: { ...v, destination_ids: ticked }, errors: [M.createFailed(outcome.message)] }, { status: 400 });
  return redirect("/connectors");
}

export default function CreateConnector() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<PageData>();
  const data: PageData = actionData ?? loaded;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const v = data.values;
  const cascadeNow = () => {
    if (formRef.current) submit(formRef.current, { method: "get", action: "/connectors/add", replace: true, preventScrollReset: true });
  };
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to="/connectors">Connectors</BackLink>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">Create Connector</h1>
      <FormBanner errors={[...data.loadErrors, ...data.errors]} />
      <Form ref={formRef} method="post" action="/connectors/add" className="card space-y-5 p-6" noValidate key={`${v.source}|${v.platform}`}>
        <input type="hidden" name="prev_source" value={v.source} />
        <input type="hidden" name="prev_platform" value={v.platform} />
        <div>
          <label htmlFor="name" className={fieldClasses.label}>
            Connector name
          </label>
          <input id="name" name="name" type="text" defaultValue={v.name} className={fieldClasses.input} autoComplete="off" />
        </div>
        <div>
          <label htmlFor="description" className={fieldClasses.label}>
            Description
          </label>
          <textarea id="description" name="description" rows={3} defaultValue={v.description} className={fieldClasses.input} />
        </div>
        <div>
          <label htmlFor="source" className={fieldClasses.label}>
            Source
          </label>
          <div className="flex gap-2">
            <select id="source" name="source" defaultValue={v.source} className={fieldClasses.input} onChange={cascadeNow}>
              <option value="">Select a source</option>
              {data.sources.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.integration_label})
                </option>
              ))}
            </select>
            {hydrated ? null : (
              <button type="submit" formMethod="get" formNoValidate className="btn-secondary mt-1" name="step" value="source">
                Apply
              </button>
            )}
          </div>
        </div>
        {data.platforms !== null && data.platforms.length === 0 ? <p className="text-sm text-slate-600">{M.noPlatforms}</p> : null}
        {data.platforms?.length ? (
          <div>
            <label htmlFor="platform" className={fieldClasses.label}>
              Platform
            </label>
            <div className="flex gap-2">
              <select id="platform" name="platform" defaultValue={v.platform} className={fieldClasses.input} onChange={cascadeNow}>
                <option value="">Select a platform</option>
                {data.platforms.map((p) => (
                  <option key={p} value={p}>
                    {p.toUpperCase()}
                  </option>
                ))}
              </select>
              {hydrated ? null : (
                <button type="submit" formMethod="get" formNoValidate className="btn-secondary mt-1" name="step" value="platform">
                  Next
                </button>
              )}
            </div>
          </div>
        ) : null}
        {data.destinations ? (
          <fieldset>
            <legend className={fieldClasses.label}>Destinations</legend>
            {data.destinations.length === 0 ? (
              <p className="mt-1 text-sm text-slate-600">{M.noDestinations}</p>
            ) : (
              <ul className="mt-2 space-y-2">
                {data.destinations.map((d) => (
                  <li key={d.id}>
                    <label className="flex items-center gap-2 text-sm text-slate-800">
                      <input type="checkbox" name="destination_ids" value={d.id} defaultChecked={v.destination_ids.includes(d.id)} className="h-4 w-4 rounded border-slate-300" />
                      {d.name} <span className="text-slate-500">({d.integration_label}, {d.category})</span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
        ) : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor="frequency" className={fieldClasses.label}>
              Frequency
            </label>
            <select id="frequency" name="frequency" defaultValue={v.frequency} className={fieldClasses.input}>
              <option value="">Select a frequency</option>
              {FREQUENCIES.map((f) => (
                <option key={f} value={f}>
                  {f === "daily" ? "Daily" : "Hourly"}
                </option>
              ))}
            </select>
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
            {busy ? "Creating..." : "Create Connector"}
          </button>
        </div>
      </Form>
    </div>
  );
}
