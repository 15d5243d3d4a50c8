import { z } from "zod";
import { optionalField } from "./settings.js";
import { googleManifest, requiredMessages } from "./google-kit.js";

/** Cloud Storage ("storage"; the API also answers "gcs"): the platform's service account writes to the user's bucket. */

export const BUCKET_PATTERN = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;

export const GCS_MESSAGES = requiredMessages("bucket", "Please enter your Google Cloud Storage bucket name");

export const bucketNameField = optionalField(
  z.string().trim().regex(BUCKET_PATTERN, "Bucket name must be 3 to 63 lowercase letters, digits, dots, hyphens or underscores"),
);

export const gcsManifest = googleManifest({
  name: "storage",
  apiAlias: "gcs",
  label: "Google Cloud Storage",
  category: "STORAGE",
  warehouse: false,
  place: { key: "bucket_name", schema: bucketNameField, label: "Bucket name", placeholder: "my-bucket", missing: { create: GCS_MESSAGES.bucket, test: GCS_MESSAGES.bucketBeforeTest } },
});
