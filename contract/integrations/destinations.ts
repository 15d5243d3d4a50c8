import { z } from "zod";
import type { DestinationContract, SettingsCheckMoment } from "./settings.js";
import { localManifest } from "./local.js";
import { gcsManifest } from "./gcs.js";
import { bigqueryManifest } from "./bigquery.js";
import { snowflakeManifest, snowflakeStageManifest } from "./snowflake.js";
import { postgresManifest } from "./postgres.js";

/**
 * The destination manifests, in the order the type select lists them. A new destination adds its manifest here (one
 * line) and its plug-in to backend/integrations/destinations/registry.ts. Manifests take their helpers from
 * settings.ts, never from this module (it imports them: a cycle would leave a manifest undefined in this list).
 */

export { optionalField, requireField, type DestinationContract, type SettingsCheckMoment } from "./settings.js";

export const DESTINATION_MANIFESTS: readonly DestinationContract[] = [gcsManifest, bigqueryManifest, snowflakeManifest, snowflakeStageManifest, localManifest, postgresManifest];

export function destinationManifest(name: string | undefined): DestinationContract | undefined {
  return DESTINATION_MANIFESTS.find((m) => m.name === name);
}

/** Spec §4's integration keys of the transform wizard: the destinations a user grants access to, by their API names. */
export function wizardIntegrationKeys(): string[] {
  return DESTINATION_MANIFESTS.filter((m) => m.needsConnectionTest)
    .map((m) => m.apiAlias ?? m.name)
    .sort();
}

/** The settings rules of a destination type: its own checkSettings, or else every issue of its settings schema. */
export function checkDestinationSettings(name: string | undefined, values: Record<string, unknown>, ctx: z.RefinementCtx, when: SettingsCheckMoment): void {
  const manifest = destinationManifest(name);
  if (!manifest) return;
  if (manifest.checkSettings) return manifest.checkSettings(values, ctx, when);
  const result = manifest.settings.safeParse(values);
  if (result.success) return;
  for (const issue of result.error.issues) ctx.addIssue({ ...issue, code: z.ZodIssueCode.custom, message: issue.message });
}
