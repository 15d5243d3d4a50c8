import type { SyncRun } from "../../contract/connectors.js";

/**
 * Runs as a test drives them through the backend's HTTP API (issue 39): a signed-in user's calls, a data-generator
 * source of a chosen volume feeding destinations, and waiting for a run to reach a state (never for a time).
 */
export interface ApiUser {
  /** The backend's base URL. */
  url: string;
  /** The user's Cookie header. */
  cookie: string;
}

export async function callApi(user: ApiUser, method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${user.url}${route}`, {
    method,
    headers: { cookie: user.cookie, "content-type": "application/json" },
    body: body === undefined ? (method === "GET" || method === "DELETE" ? undefined : "{}") : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** A data-generator source of `meetingsPerDay` (its optional volume) and a connector from it to `destinationIds`. */
export async function datagenConnector(user: ApiUser, options: { meetingsPerDay: number; destinationIds: string[]; lookbackDays?: number; name?: string }) {
  const credential = await callApi(user, "POST", "/externalauth/datagen/callback", {});
  const source = await callApi(user, "POST", "/sources/create", {
    name: `${options.name ?? "Gen"} source`,
    credentialId: credential.body.credential_id,
    integration_name: "datagen",
    integration_label: "Data Generator",
    source_metadata: { company: "Acme Rockets", format: "zoom", meetings_per_day: options.meetingsPerDay },
  });
  if (source.status !== 201) throw new Error(`source create answered ${source.status}: ${JSON.stringify(source.body)}`);
  const connector = await callApi(user, "POST", "/connectors/create", {
    first_sync: false,
    name: options.name ?? "Sync",
    description: "",
    frequency: "daily",
    source_id: source.body.id,
    destination_ids: options.destinationIds,
    lookback_days: options.lookbackDays ?? 1,
  });
  if (connector.status !== 201) throw new Error(`connector create answered ${connector.status}: ${JSON.stringify(connector.body)}`);
  return { sourceId: source.body.id as string, connectorId: connector.body.id as string };
}

/** A local-folder destination (files + the embedded warehouse); answers its id and folder. */
export async function localDestination(user: ApiUser, name = "Disk") {
  const destination = await callApi(user, "POST", "/destinations/create", { name, integration_name: "local" });
  if (destination.status !== 201) throw new Error(`destination create answered ${destination.status}: ${JSON.stringify(destination.body)}`);
  return { id: destination.body.destination.id as string, folder: destination.body.destination.config.folder as string };
}

export async function syncRuns(user: ApiUser, connectorId: string): Promise<SyncRun[]> {
  return (await callApi(user, "GET", `/connectors/${connectorId}/runs`)).body.runs;
}

/** Waits until the run satisfies `done` (polling its connector's history); fails after `timeoutMs` saying its status. */
export async function waitForRun(user: ApiUser, connectorId: string, runId: string, done: (run: SyncRun) => boolean, timeoutMs = 120_000): Promise<SyncRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await syncRuns(user, connectorId)).find((r) => r.id === runId);
    if (run && done(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run?.status ?? "missing"}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const runFinished = (run: SyncRun) => run.status === "succeeded" || run.status === "failed" || run.status === "cancelled";
