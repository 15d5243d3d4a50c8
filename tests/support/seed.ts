import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { sources } from "../../backend/db/schema.js";
import { insertTransform } from "../../backend/db/transforms.js";
import { LocalWriter, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { api, type TestBackend } from "./backend.js";
import { localDestination as userLocalDestination } from "./runs.js";

/**
 * Records the backend tests start from, made through the product's own API as a user would make them; what no route
 * sets (a data generator's volume) goes through one named helper here.
 */

export interface DatagenConnector {
  connectorId: string;
  sourceId: string;
  destinationId: string;
  /** The local destination's folder (under the backend's DATA_DIR). */
  folder: string;
}

/**
 * A data generator source → a local folder destination → a daily connector, made through the API as `cookie`'s user.
 * `meetingsPerDay` sets the generator's volume (its default otherwise); `destination`: one made before, shared.
 */
export async function seedDatagenConnector(
  t: Pick<TestBackend, "url" | "handle">,
  cookie: string,
  options: {
    name?: string;
    meetingsPerDay?: number;
    lookbackDays?: number;
    company?: string;
    format?: "zoom" | "gong";
    description?: string;
    frequency?: "hourly" | "daily";
    destination?: { id: string; folder: string };
  } = {},
): Promise<DatagenConnector> {
  const name = options.name ?? "Sync";
  const credential = await api(t, cookie, "POST", "/externalauth/datagen/callback", {});
  const source = await api(t, cookie, "POST", "/sources/create", {
    name: `${name} source`,
    credentialId: credential.body.credential_id,
    integration_name: "datagen",
    integration_label: "Data Generator",
    source_metadata: { company: options.company ?? "Acme Rockets", format: options.format ?? "zoom" },
  });
  expect(source.status).toBe(201);
  if (options.meetingsPerDay !== undefined) await setDatagenVolume(t, source.body.id, options.meetingsPerDay);
  const destination = options.destination ?? (await localDestination(t, cookie, `${name} disk`));
  const connector = await api(t, cookie, "POST", "/connectors/create", {
    first_sync: false,
    name,
    description: options.description ?? "",
    frequency: options.frequency ?? "daily",
    source_id: source.body.id,
    destination_ids: [destination.id],
    lookback_days: options.lookbackDays ?? 3,
  });
  expect(connector.status).toBe(201);
  return { connectorId: connector.body.id, sourceId: source.body.id, destinationId: destination.id, folder: destination.folder };
}

/** A local folder destination, made through the API as `cookie`'s user: its id and folder. */
export const localDestination = (t: Pick<TestBackend, "url">, cookie: string, name: string): Promise<{ id: string; folder: string }> =>
  userLocalDestination({ url: t.url, cookie }, name);

/** A data generator source's meetings per day: a test's volume (no form sets it; the plug-in reads it from the source's metadata). */
export async function setDatagenVolume(t: Pick<TestBackend, "handle">, sourceId: string, meetingsPerDay: number): Promise<void> {
  await t.handle.db
    .update(sources)
    .set({ metadata: sql`${sources.metadata} || jsonb_build_object('meetings_per_day', ${meetingsPerDay}::int)` })
    .where(sql`${sources.id} = ${sourceId}`);
}

/** Runs `query` (DuckDB SQL) on a local destination's embedded warehouse. */
export async function readWarehouse(t: Pick<TestBackend, "dataDir">, folder: string, query: string) {
  const reader = new LocalWriter(resolveLocalRoot(t.dataDir, folder));
  try {
    return await reader.query(query);
  } finally {
    await reader.close();
  }
}

/**
 * A topic-modeling transform of `connectorId`, stored with the backend's own insertTransform and no run queued (the
 * create route queues its first run): for tests about runs asked for later.
 */
export async function seedTransform(t: Pick<TestBackend, "handle">, ownerId: string, connectorId: string, name: string): Promise<string> {
  const row = await insertTransform(t.handle.db, ownerId, {
    name,
    description: "",
    transformType: "topic_modeling",
    templateId: "topic_modeling",
    connectorId,
    frequency: "daily",
    fileTypes: [".vtt"],
    inputs: {},
    requirementInputs: {},
    permissionsSetup: true,
  });
  if (!row) throw new Error(`a transform named ${name} already exists`);
  return row.id;
}
