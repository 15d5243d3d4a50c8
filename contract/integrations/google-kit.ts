import { z } from "zod";
import { optionalField, requireField, type DestinationContract, type SettingsCheckMoment } from "./settings.js";
import type { DestinationCategory } from "./types.js";

/**
 * What the Google destinations (Cloud Storage, BigQuery) share: the user's project, BigQuery's permission types (a
 * Cloud Storage body may name one: refused), and their manifests' fixed parts. A Google manifest names the place it
 * writes to (a bucket, a dataset) and googleManifest fills in the rest.
 */

export const PROJECT_ID_PATTERN = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

/**
 * Spec §5's two messages of a required Google setting, character for character: `key` when a create misses it, and
 * `<key>BeforeTest` (the same, "before testing connection") when a connection test does.
 */
export function requiredMessages<const K extends string, const M extends string>(key: K, message: M) {
  return { [key]: message, [`${key}BeforeTest`]: `${message} before testing connection` } as { readonly [P in K]: M } & {
    readonly [P in `${K}BeforeTest`]: `${M} before testing connection`;
  };
}

export const GOOGLE_MESSAGES = requiredMessages("projectId", "Please enter your GCP Project ID");

export const projectIdField = optionalField(
  z.string().trim().regex(PROJECT_ID_PATTERN, "Project ID must be 6 to 30 lowercase letters, digits or hyphens, starting with a letter"),
);

/** BigQuery permission types: write access for syncs, or (transforms) query access to the project. A Cloud Storage body may name one (refused). */
export const PERMISSION_TYPES = ["dataset_write", "dataset_query_access"] as const;
export type PermissionType = (typeof PERMISSION_TYPES)[number];
export const permissionTypeField = optionalField(z.enum(PERMISSION_TYPES, { errorMap: () => ({ message: "Unknown permission type" }) }));

/** A required setting whose message says whether a create or a connection test misses it (spec §5). */
function requireAt(ctx: z.RefinementCtx, v: Record<string, unknown>, key: string, when: SettingsCheckMoment, messages: { create: string; test: string }): void {
  requireField(ctx, v[key], key, when === "test" ? messages.test : messages.create);
}

/** Where a Google destination writes (a bucket, a dataset): its setting, its form field and its required-field rule. */
export interface GooglePlace<K extends string, S extends z.ZodTypeAny> {
  key: K;
  schema: S;
  label: string;
  placeholder: string;
  /** Spec §5's messages when it is missing: on create, and before a connection test. */
  missing: { create: string; test: string };
  /** Settings that need no place (BigQuery's query access to the project). */
  optionalFor?(values: Record<string, unknown>): boolean;
}

/** A Google destination's manifest: the project, its place and the permission type, checked by the platform's service account. */
export function googleManifest<K extends string, S extends z.ZodTypeAny>(m: {
  name: string;
  apiAlias?: string;
  label: string;
  category: DestinationCategory;
  warehouse: boolean;
  place: GooglePlace<K, S>;
}) {
  const { place } = m;
  const placeShape = { [place.key]: place.schema } as { [P in K]: S };
  return {
    kind: "destination",
    name: m.name,
    ...(m.apiAlias === undefined ? {} : { apiAlias: m.apiAlias }),
    label: m.label,
    category: m.category,
    settings: z.object({ project_id: projectIdField, ...placeShape, permission_type: permissionTypeField }),
    fields: [
      { name: "project_id", label: "GCP Project ID", input: "text", placeholder: "my-project-123" },
      { name: place.key, label: place.label, input: "text", placeholder: place.placeholder },
    ],
    secretFields: [],
    needsConnectionTest: true,
    warehouse: m.warehouse,
    accepts: { objects: true, rows: true },
    checkSettings(v, ctx, when) {
      requireAt(ctx, v, "project_id", when, { create: GOOGLE_MESSAGES.projectId, test: GOOGLE_MESSAGES.projectIdBeforeTest });
      if (!place.optionalFor?.(v)) requireAt(ctx, v, place.key, when, place.missing);
    },
  } satisfies DestinationContract;
}
