import { platformOfSource } from "../../../contract/integrations/sources.js";

/** What the rest of the backend uses of the source plug-ins. */
export { readRecords } from "./read.js";
export { READABLE_INTEGRATIONS, SOURCE_PLUGINS, sourcePlugin } from "./registry.js";
export { PermanentReadError } from "./kit/errors.js";
export { credentialVerified } from "./kit/verification.js";
export { hashString } from "./kit/hash.js";
export { meetingFiles, toGongCall, toText, toVtt, type Meeting, type Person, type Utterance } from "./records.js";
export { messageFiles, messageRow, type EmailMessage } from "./gmail/records.js";
export { ReadTracker, type ItemCounts, type LandedItems } from "./tracker.js";
export type { EmitContext, ReadOptions, ReadWindow, RecordSink, SourcePlugin, SourceRow } from "./plugin.js";

/** The platform a source's records are of: the connector's own choice, else what the source's settings produce. */
export function platformOf(source: { integrationName: string; metadata: Record<string, unknown> }, connectorPlatform?: string | null): string {
  return platformOfSource(source.integrationName, source.metadata, connectorPlatform);
}
