import type { DestinationPlugin } from "./plugin.js";
import { gcsPlugin } from "./gcs/plugin.js";
import { bigqueryPlugin } from "./bigquery/plugin.js";
import { snowflakeStagePlugin, snowflakeWarehousePlugin } from "./snowflake/plugin.js";
import { localPlugin } from "./local/plugin.js";
import { postgresPlugin } from "./postgres/plugin.js";

/**
 * The destination plug-ins by name: the HTTP routers, the sync engine and the transforms find a destination's
 * everything here. A new destination adds one line (and its manifest to contract/integrations/destinations.ts).
 */
export const DESTINATION_PLUGINS: readonly DestinationPlugin[] = [
  gcsPlugin,
  bigqueryPlugin,
  snowflakeWarehousePlugin,
  snowflakeStagePlugin,
  localPlugin,
  postgresPlugin,
];

/** The plug-in of a destination type, or undefined for a type this server does not know. */
export function destinationPlugin(name: string | undefined): DestinationPlugin | undefined {
  return DESTINATION_PLUGINS.find((p) => p.manifest.name === name);
}

/** The plug-in a stored destination names; a destination of an unknown type is the server's error, not the user's. */
export function pluginOf(destination: { integrationName: string }): DestinationPlugin {
  const plugin = destinationPlugin(destination.integrationName);
  if (!plugin) throw new Error(`No destination plug-in for type ${destination.integrationName}`);
  return plugin;
}

/** The /externalauth/<path> names and the plug-in each one answers for (Cloud Storage is also "gcs"). */
export function authPaths(): [string, DestinationPlugin][] {
  return DESTINATION_PLUGINS.flatMap((p) => (p.authPaths ?? [p.manifest.name]).map((path): [string, DestinationPlugin] => [path, p]));
}
