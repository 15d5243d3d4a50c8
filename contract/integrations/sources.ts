import type { z } from "zod";
import type { SourceManifest } from "./types.js";
import { zoomManifest } from "./zoom.js";
import { teamsManifest } from "./teams.js";
import { gmailManifest } from "./gmail.js";
import { meetManifest } from "./meet.js";
import { outlookManifest } from "./outlook.js";
import { datagenManifest } from "./datagen.js";
import { streamFileTypes, type StreamManifest } from "./streams.js";

/**
 * The source manifests, in the order the type select lists them (spec §3/§9). A new source adds its manifest here
 * (its import and its line) and its plug-in to backend/integrations/sources/registry.ts; everything else (its setup
 * calls' answers, the app's part of its form, its details labels) comes from its own folders.
 */

type Settings = Record<string, unknown>;

/** A source manifest with the rules that depend on a source's settings. */
export interface SourceIntegration extends SourceManifest {
  /** `settings` with its cross-field rules (the schema a create is checked against). */
  settingsRules: z.ZodType<Settings, z.ZodTypeDef, unknown>;
  /** Whether these settings need a verification, when `needsVerification` (default: always). */
  verificationRequired?(settings: Settings): boolean;
  /** The one platform a source with these settings produces, when it may produce several (null: none valid). */
  platformOf?(settings: Settings): string | null;
}

export const SOURCE_MANIFESTS = [
  zoomManifest,
  teamsManifest,
  gmailManifest,
  meetManifest,
  outlookManifest,
  datagenManifest,
] as const;

export type SourceIntegrationName = (typeof SOURCE_MANIFESTS)[number]["name"];

export function sourceManifest(name: string | null | undefined): SourceIntegration | undefined {
  return (SOURCE_MANIFESTS as readonly SourceIntegration[]).find((m) => m.name === name);
}

/**
 * The providers a source reads, as a sentence says them, from the manifests: "Zoom, Microsoft Teams and Gmail", or with
 * "," all of them listed ("Connect Zoom, Microsoft Teams, Gmail or the data generator"). The data generator is left to
 * the sentence.
 */
export function providersInWords(conjunction: "and" | ","): string {
  const labels = (SOURCE_MANIFESTS as readonly SourceIntegration[]).filter((m) => !m.synthetic).map((m) => m.label);
  if (conjunction === "," || labels.length < 2) return labels.join(", ");
  return `${labels.slice(0, -1).join(", ")} ${conjunction} ${labels.at(-1)}`;
}

/** THE rule: a create of this integration with these settings must carry a successful verification of them. */
export function needsVerification(name: string, settings: Settings): boolean {
  const manifest = sourceManifest(name);
  if (!manifest?.needsVerification) return false;
  return manifest.verificationRequired?.(settings) ?? true;
}

/**
 * The platforms a source integration produces (spec §3: plain strings shown in uppercase); with a source's
 * settings in hand, only what that source really produces.
 */
export function platformsFor(name: string, settings?: Settings): string[] {
  const manifest = sourceManifest(name);
  if (!manifest) return [];
  if (!settings || !manifest.platformOf) return [...manifest.platforms];
  const platform = manifest.platformOf(settings);
  return platform ? [platform] : [];
}

/** The platform a source's records are of: the connector's choice, else the one its settings produce. */
export function platformOfSource(name: string, settings: Settings, connectorPlatform?: string | null): string {
  const manifest = sourceManifest(name);
  return connectorPlatform ?? manifest?.platformOf?.(settings) ?? manifest?.platforms[0] ?? name;
}

/**
 * The files a sync writes per record, by platform, from every manifest's streams: a transform's file types pick the
 * platforms whose files it reads ({ zoom: [".vtt", ".txt"], gong: [".json", ".txt"], … }).
 */
export const PLATFORM_FILE_TYPES: Readonly<Record<string, readonly string[]>> = (() => {
  const map: Record<string, Set<string>> = {};
  for (const manifest of SOURCE_MANIFESTS as readonly SourceIntegration[]) {
    for (const stream of manifest.streams) {
      for (const [platform, types] of Object.entries(stream.files ?? {})) for (const t of types) (map[platform] ??= new Set()).add(t);
    }
  }
  return Object.fromEntries(Object.entries(map).map(([platform, types]) => [platform, [...types]]));
})();

/** The file types a source integration's syncs write (for one of its platforms, when given). */
/** The streams a source integration declares ([] for one unknown here). */
export const sourceStreams = (name: string | null | undefined): readonly StreamManifest[] => sourceManifest(name)?.streams ?? [];

/** A stream by name, from whichever manifest declares it (the first). */
export function streamNamed(name: string): StreamManifest | undefined {
  for (const manifest of SOURCE_MANIFESTS) for (const stream of manifest.streams) if (stream.name === name) return stream;
  return undefined;
}

export function sourceFileTypes(name: string, platform?: string): string[] {
  return streamFileTypes(sourceManifest(name)?.streams ?? [], platform);
}
