import { z } from "zod";
import { optionalField, requireField, type DestinationContract, type SettingsCheckMoment } from "./settings.js";

/** Cloud Storage ("storage"; the API also answers "gcs"): the platform's service account writes to the user's bucket. */

export const PROJECT_ID_PATTERN = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
export const BUCKET_PATTERN = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;

/** Spec §5, character for character. */
export const GOOGLE_MESSAGES = {
  projectId: "Please enter your GCP Project ID",
  projectIdBeforeTest: "Please enter your GCP Project ID before testing connection",
  bucket: "Please enter your Google Cloud Storage bucket name",
  bucketBeforeTest: "Please enter your Google Cloud Storage bucket name before testing connection",
} as const;

export const projectIdField = optionalField(
  z.string().trim().regex(PROJECT_ID_PATTERN, "Project ID must be 6 to 30 lowercase letters, digits or hyphens, starting with a letter"),
);
export const bucketNameField = optionalField(
  z.string().trim().regex(BUCKET_PATTERN, "Bucket name must be 3 to 63 lowercase letters, digits, dots, hyphens or underscores"),
);

/** BigQuery permission types: write access for syncs, or (transforms) query access to the project. A Cloud Storage body may name one (refused). */
export const PERMISSION_TYPES = ["dataset_write", "dataset_query_access"] as const;
export type PermissionType = (typeof PERMISSION_TYPES)[number];
export const permissionTypeField = optionalField(z.enum(PERMISSION_TYPES, { errorMap: () => ({ message: "Unknown permission type" }) }));

/** The project every Google destination names (spec §5's two messages). */
export function requireProject(v: Record<string, unknown>, ctx: z.RefinementCtx, when: SettingsCheckMoment): void {
  requireField(ctx, v.project_id, "project_id", when === "test" ? GOOGLE_MESSAGES.projectIdBeforeTest : GOOGLE_MESSAGES.projectId);
}

export const gcsManifest = {
  kind: "destination",
  name: "storage",
  apiAlias: "gcs",
  label: "Google Cloud Storage",
  category: "STORAGE",
  settings: z.object({ project_id: projectIdField, bucket_name: bucketNameField, permission_type: permissionTypeField }),
  fields: [
    { name: "project_id", label: "GCP Project ID", input: "text", placeholder: "my-project-123" },
    { name: "bucket_name", label: "Bucket name", input: "text", placeholder: "my-bucket" },
  ],
  secretFields: [],
  needsConnectionTest: true,
  warehouse: false,
  accepts: { objects: true, rows: true },
  checkSettings(v, ctx, when) {
    requireProject(v, ctx, when);
    requireField(ctx, v.bucket_name, "bucket_name", when === "test" ? GOOGLE_MESSAGES.bucketBeforeTest : GOOGLE_MESSAGES.bucket);
  },
} satisfies DestinationContract;
