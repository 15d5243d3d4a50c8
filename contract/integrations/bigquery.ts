import { z } from "zod";
import { optionalField, requireField, type DestinationContract } from "./settings.js";
import { permissionTypeField, projectIdField, requireProject } from "./gcs.js";

/** BigQuery: the platform's service account loads into the user's dataset (or, for transforms, queries the project). */

export const DATASET_PATTERN = /^[A-Za-z0-9_]{1,1024}$/;

export { PERMISSION_TYPES, permissionTypeField, type PermissionType } from "./gcs.js";

/** Spec §5, character for character. */
export const BIGQUERY_MESSAGES = {
  dataset: "Please enter your BigQuery dataset name",
  datasetBeforeTest: "Please enter your BigQuery dataset name before testing connection",
} as const;

export const datasetNameField = optionalField(z.string().trim().regex(DATASET_PATTERN, "Dataset name may contain only letters, digits and _"));

export const bigqueryManifest = {
  kind: "destination",
  name: "bigquery",
  label: "BigQuery",
  category: "WAREHOUSE",
  settings: z.object({ project_id: projectIdField, dataset_name: datasetNameField, permission_type: permissionTypeField }),
  fields: [
    { name: "project_id", label: "GCP Project ID", input: "text", placeholder: "my-project-123" },
    { name: "dataset_name", label: "Dataset name", input: "text", placeholder: "analytics" },
  ],
  secretFields: [],
  needsConnectionTest: true,
  warehouse: true,
  accepts: { objects: true, rows: true },
  checkSettings(v, ctx, when) {
    requireProject(v, ctx, when);
    if (v.permission_type !== "dataset_query_access") {
      requireField(ctx, v.dataset_name, "dataset_name", when === "test" ? BIGQUERY_MESSAGES.datasetBeforeTest : BIGQUERY_MESSAGES.dataset);
    }
  },
} satisfies DestinationContract;
