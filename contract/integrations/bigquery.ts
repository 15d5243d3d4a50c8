import { z } from "zod";
import { optionalField } from "./settings.js";
import { googleManifest, requiredMessages } from "./google-kit.js";

/** BigQuery: the platform's service account loads into the user's dataset (or, for transforms, queries the project). */

export const DATASET_PATTERN = /^[A-Za-z0-9_]{1,1024}$/;

export const BIGQUERY_MESSAGES = requiredMessages("dataset", "Please enter your BigQuery dataset name");

export const datasetNameField = optionalField(z.string().trim().regex(DATASET_PATTERN, "Dataset name may contain only letters, digits and _"));

export const bigqueryManifest = googleManifest({
  name: "bigquery",
  label: "BigQuery",
  category: "WAREHOUSE",
  warehouse: true,
  place: {
    key: "dataset_name",
    schema: datasetNameField,
    label: "Dataset name",
    placeholder: "analytics",
    missing: { create: BIGQUERY_MESSAGES.dataset, test: BIGQUERY_MESSAGES.datasetBeforeTest },
    // Query access (transforms) is to the whole project.
    optionalFor: (v) => v.permission_type === "dataset_query_access",
  },
});
