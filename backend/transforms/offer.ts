import type { Database } from "../db/client.js";
import { connectorDataOf } from "../db/transforms.js";
import { sourceManifest } from "../../contract/integrations/sources.js";
import { TRANSFORM_MESSAGES as M } from "../../contract/transforms.js";
import type { TemplateDefinition } from "./catalogue.js";
import { programOf } from "./programs/index.js";
import { FieldError } from "./requests.js";
import { readsOf } from "./setup-steps.js";

/**
 * Which templates a connector is offered: those whose program reads a stream its source declares (a Gmail connector's
 * source syncs email_messages, so it gets the e-mail templates; a meeting source's meetings, so the transcript ones).
 * The wizard lists only these; create and preview refuse the others with a sentence that says why.
 */

/** The stream names a source integration declares (none for an unknown one). */
export function streamsOf(integrationName: string): string[] {
  return (sourceManifest(integrationName)?.streams ?? []).map((s) => s.name);
}

export function offered(d: TemplateDefinition, streams: readonly string[]): boolean {
  const stream = programOf(d.id)?.stream;
  return stream !== undefined && streams.includes(stream);
}

/** The streams of a connector's source (the caller has checked the connector is the user's); null when it is gone. */
export async function connectorStreams(db: Database, connectorId: string): Promise<{ streams: string[]; source: string } | null> {
  const data = await connectorDataOf(db, connectorId);
  if (!data) return null;
  return { streams: streamsOf(data.integrationName), source: sourceManifest(data.integrationName)?.label ?? data.integrationName };
}

/** Refuses (400, field template_id) a template the connector is not offered. */
export async function requireOffered(db: Database, d: TemplateDefinition, connectorId: string): Promise<void> {
  const of = await connectorStreams(db, connectorId);
  if (of && !offered(d, of.streams)) throw new FieldError(400, M.templateNotOffered(d.name, readsOf(d).records, of.source), "template_id");
}
