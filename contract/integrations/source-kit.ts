import { z } from "zod";
import { storable } from "../text.js";
import type { SourceIntegration } from "./sources.js";

/**
 * What the source manifests share: the spec's messages, the optional-text rule (contract/sources.ts re-exports them),
 * the organization-or-unit scope and the manifest's fixed parts.
 */

/** The messages of spec §5 "Source create" / "Source update" and §8 "Source", character for character. */
export const SOURCE_MESSAGES = {
  nameRequired: "Please enter a source name",
  integrationRequired: "Please select an integration type",
  gmailAuthTypeRequired: "Please select a Gmail authentication type",
  integrationBeforeAuth: "Please select an integration type before authenticating",
  mustAuthenticate: "You must authenticate with the selected integration",
  mustVerify: "You must verify the integration setup",
  teamAlreadyConnected: "This team is already connected. Please choose another team.",
  integrationChanged: "Integration changed. You'll need to authenticate with this new integration.",
  createFailed: (text: string) => `Failed to create source: ${text}`,
  updateFailed: (text: string) => `Failed to update source: ${text}`,
  deleteFailed: "Failed to delete source",
  fetchSourcesFailed: "Failed to fetch sources",
  fetchSourceFailed: "Failed to fetch source",
  notFound: "Source not found",
  verificationFailed: "Verification failed. Please fix the setup and try again.",
  datagenAuthFailed: "Datagen authentication failed.",
  gmailAuthOptionsFailed: "Failed to fetch Gmail auth options",
  // Rules the spec states without a quoted message.
  companyTooLong: "Company name must be 100 characters or fewer",
  formatRequired: "Please select a data style (zoom or gong)",
  zoomGroupRequired: "Please select a Zoom group",
  teamRequired: "Please select a team",
  adminEmailRequired: "Workspace admin e-mail is required",
  adminEmailInvalid: "Please enter a valid Workspace admin e-mail",
  gmailGroupRequired: "Please select a Google group",
} as const;

/** Optional text: null and missing are "". */
export const optionalText = (max: number, tooLong: string, label = "Text") =>
  storable(z.string({ invalid_type_error: `${label} must be text` }).trim().max(max, tooLong), label)
    .nullish()
    .transform((v) => v ?? "");

/** The files a transcript source's syncs write per meeting (Zoom, Teams). */
export const TRANSCRIPT_FILE_TYPES = [".vtt", ".txt"] as const;

type OptionalText = ReturnType<typeof optionalText>;

/**
 * A source that reads a whole organization or one unit of it (a Zoom group, a team, a Google group): the scope's
 * settings key and values, the keys of the unit's id and name, and how the unit is called.
 */
export interface OrgOrUnit<Scope extends string, Unit extends string, More extends readonly string[], Id extends string, Name extends string> {
  scope: Scope;
  /** The scope that reads one unit ("GROUP"), and the source's other scopes beyond "ORG" and it. */
  unit: Unit;
  more?: More;
  id: Id;
  name: Name;
  /** "group" or "team", as the scope's message says it; the label of the unit's fields ("Zoom group" id / name). */
  word: "group" | "team";
  label: string;
  /** The spec's message when the unit's scope names no unit ("Please select a Zoom group"). */
  required: string;
}

/**
 * The settings of an organization-or-unit scope (the choice of scope, the unit's id and name) and its rule: the
 * unit's scope needs the unit's id.
 */
export function orgOrUnit<const Scope extends string, const Unit extends string, const Id extends string, const Name extends string, const More extends readonly string[] = []>(
  u: OrgOrUnit<Scope, Unit, More, Id, Name>,
) {
  const scopes = ["ORG", u.unit, ...(u.more ?? [])] as unknown as ["ORG", Unit, ...More];
  const message = `Please choose the extraction scope (entire organization or a specific ${u.word})`;
  const shape = {
    [u.scope]: z.enum(scopes, { errorMap: () => ({ message }) }),
    [u.id]: optionalText(200, `${u.label} id is too long`, `${u.label} id`),
    [u.name]: optionalText(500, `${u.label} name is too long`, `${u.label} name`),
  } as { [K in Scope]: z.ZodEnum<["ORG", Unit, ...More]> } & { [K in Id | Name]: OptionalText };
  const rule = (v: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (v[u.scope] === u.unit && !v[u.id]) ctx.addIssue({ code: "custom", path: [u.id], message: u.required });
  };
  return { shape, rule };
}

/** A source manifest: what it says of itself, and the kind every source manifest has. */
export function defineSource<const M extends Omit<SourceIntegration, "kind">>(m: M) {
  return { kind: "source" as const, ...m };
}
