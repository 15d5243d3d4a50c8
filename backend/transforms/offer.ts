import type { ConnectorData } from "../db/transforms.js";
import { sourceManifest, sourceStreams } from "../../contract/integrations/sources.js";
import { TRANSFORM_MESSAGES as M } from "../../contract/transforms.js";
import type { TemplateDefinition } from "./catalogue.js";
import { programOf } from "./programs/index.js";
import { invalid } from "../services/errors.js";
import { readsOf } from "./setup-steps.js";

/**
 * Which templates a connector is offered: those whose program reads a stream its source declares (a Gmail connector's
 * source syncs email_messages, so it gets the e-mail templates; a meeting source's meetings, so the transcript ones).
 * The wizard lists only these; create and preview refuse the others with a sentence that says why.
 */

export function offered(d: TemplateDefinition, integrationName: string): boolean {
  const stream = programOf(d.id)?.stream;
  return stream !== undefined && sourceStreams(integrationName).some((s) => s.name === stream);
}

/** Refuses (400, field template_id) a template the connector (its data, as connectorDataOf reads it) is not offered. */
export function requireOffered(d: TemplateDefinition, connector: ConnectorData | null): void {
  if (connector && !offered(d, connector.integrationName)) {
    const source = sourceManifest(connector.integrationName)?.label ?? connector.integrationName;
    throw invalid(M.templateNotOffered(d.name, readsOf(d).records, source), "template_id");
  }
}
