import type { Database } from "../db/client.js";
import { connectorDestinationList, ownsDestination, type DestinationRow } from "../db/destinations.js";
import type { SecretBox } from "../lib/crypto.js";
import { destinationPlugin, pluginOf } from "../integrations/destinations/registry.js";
import { platformServiceAccount } from "../integrations/destinations/kit/google.js";
import type { PluginDestination, WarehouseTarget } from "../integrations/destinations/plugin.js";
import type { Warehouse } from "../integrations/destinations/warehouse.js";
import { PLATFORM_FILE_TYPES, platformOfSource, sourceFileTypes, streamNamed } from "../../contract/integrations/sources.js";
import { platformsFor } from "../integrations/destinations/kit/warehouse-rows.js";
import { TRANSFORM_FILE_TYPES } from "../../contract/transforms.js";

/**
 * What is transforms' own about warehouses: which of a connector's destinations a transform uses, and opening it
 * through its plug-in (backend/integrations/destinations/<name>/warehouse.ts reads and writes there).
 */

export type { Line, MeetingMeta } from "./analysis/index.js";
export type { Warehouse, ResultPage, ResultsLocation } from "../integrations/destinations/warehouse.js";
export { platformsFor };

/**
 * Which rows of a stream's table a transform of these file types reads: the platforms to filter by (a table with a
 * platform column: meetings), none (every row of the source: e-mail messages), or null when the file types leave
 * out every platform the stream writes files for (nothing to read).
 */
export function streamFilter(table: string, fileTypes: readonly string[]): { platforms?: string[] } | null {
  const platforms = platformsFor([...fileTypes]);
  const stream = streamNamed(table);
  if (!stream || stream.columns.some((c) => c.name === "platform")) return { platforms };
  // A stream without files of its own (transcript lines) goes with its records' other stream: all the source's rows.
  if (!stream.files) return {};
  return Object.keys(stream.files ?? {}).some((p) => platforms.includes(p)) ? {} : null;
}

/** The rows a transform of these file types would read from a stream's table now. */
export async function countStreamRows(warehouse: Warehouse, table: string, sourceId: string, fileTypes: readonly string[]): Promise<number> {
  const filter = streamFilter(table, fileTypes);
  return filter ? warehouse.countRows(table, sourceId, filter.platforms) : 0;
}

/**
 * The transform file types a connector's data comes as: those of the platform its records are of (a Gong-style data
 * generator's are .json and .txt, never .vtt), in the form's order; the source's own list for an unknown platform.
 */
export function dataFileTypes(connector: { integrationName: string; metadata: Record<string, unknown>; platform: string | null }): string[] {
  const platform = platformOfSource(connector.integrationName, connector.metadata, connector.platform);
  const types = PLATFORM_FILE_TYPES[platform] ?? sourceFileTypes(connector.integrationName);
  return TRANSFORM_FILE_TYPES.filter((t) => types.includes(t));
}

/** A warehouse plug-in's destination; the wizard prefers one of a platform's own (not the embedded local one, §6). */
const isWarehouse = (d: DestinationRow) => destinationPlugin(d.integrationName)?.manifest.warehouse === true;
const isEmbedded = (d: DestinationRow) => destinationPlugin(d.integrationName)?.embedded === true;

/** The connector's destination a transform uses: its first cloud warehouse destination, else its local one; null when none. */
export async function warehouseDestination(db: Database, connectorId: string): Promise<DestinationRow | null> {
  const all = (await connectorDestinationList(db, connectorId)).filter(isWarehouse);
  return all.find((d) => !isEmbedded(d)) ?? all[0] ?? null;
}

/** The same, checked to be the owner's connector's (for the HTTP calls). */
export async function ownedWarehouseDestination(db: Database, ownerId: string, connectorId: string): Promise<DestinationRow | null> {
  const d = await warehouseDestination(db, connectorId);
  return d && (await ownsDestination(db, ownerId, d.id)) ? d : null;
}

/** The destination as the wizard describes it: only non-secret configuration, and the service account granted access. */
export function toWarehouseTarget(d: DestinationRow): WarehouseTarget {
  let serviceAccount: string | null = typeof d.config.service_account_email === "string" ? d.config.service_account_email : null;
  if (!serviceAccount && destinationPlugin(d.integrationName)?.serviceAccount) {
    try {
      serviceAccount = platformServiceAccount().client_email;
    } catch {
      serviceAccount = null;
    }
  }
  return { id: d.id, name: d.name, integration_name: d.integrationName, category: d.category, config: d.config, service_account_email: serviceAccount };
}

export interface WarehouseServices {
  db: Database;
  secrets: SecretBox;
  config: { DATA_DIR: string };
}

/** Opens the warehouse of a destination through its plug-in. */
export function openWarehouse(destination: PluginDestination, ownerId: string, services: WarehouseServices): Warehouse {
  const plugin = pluginOf(destination);
  if (!plugin.warehouse) throw new Error(`The destination "${destination.name}" has no warehouse to read`);
  return plugin.warehouse(destination, { ownerId, services });
}
