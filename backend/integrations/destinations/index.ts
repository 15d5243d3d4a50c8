import type { DestinationServices, PluginDestination } from "./plugin.js";
import { pluginOf } from "./registry.js";
import type { DestinationWriter } from "./writer.js";

export type { DeclaredColumn, DestinationWriter, DestinationObject, Row } from "./writer.js";
export { destinationPlugin, DESTINATION_PLUGINS, pluginOf } from "./registry.js";

/**
 * The writer for one of the owner's destinations (the sync engine's entry point), through its plug-in. `bulk`: a large
 * load whose caller flushes at the end; writers that gain by it gather rows before writing them.
 */
export function writerFor(destination: PluginDestination, ownerId: string, services: DestinationServices, options: { bulk?: boolean } = {}): Promise<DestinationWriter> {
  return pluginOf(destination).writer(destination, { ownerId, services }, options);
}
