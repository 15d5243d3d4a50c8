import type { Destination } from "@contract/destinations";
import { loadCompatibleDestinations, loadLookbackOptions, loadPlatforms, loadSources } from "~/services/connectors.server";
import type { PageData, Values } from "./schema";

/** The choices before this request's (hidden fields of the form): null when not sent. */
export type Input = Values & { prev_source: string | null; prev_platform: string | null };

/** The form's fields from a GET's search params (the cascade) or a POST's body. */
export function readValues(params: URLSearchParams | FormData): Input {
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
export async function cascade(request: Request, input: Input): Promise<PageData> {
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
  return { values, sources: sources.ok ? sources.data : [], lookbackOptions, platforms, destinations, loadErrors };
}
