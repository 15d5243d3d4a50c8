import { GCS_MESSAGES, gcsManifest } from "../../../../contract/integrations/gcs.js";
import { ConnectionTestError, listed, type DestinationPlugin } from "../plugin.js";
import { checkBucketAccess, platformServiceAccount } from "../kit/google.js";
import { checkWithServiceAccount, googleConfig, googleUnavailable, serviceAccount, serviceAccountInfo, trimmed, updateGoogleDestination, type GoogleSettings } from "../kit/google-access.js";
import { gcsInstructions } from "./instructions.js";
import { GcsWriter } from "./writer.js";

/** Cloud Storage: objects as named, rows as one JSON object per key, written by the platform's service account. */
export const gcsPlugin: DestinationPlugin<GoogleSettings<"bucket_name">> = {
  manifest: gcsManifest,
  authPaths: ["storage", "gcs"],
  unavailable: googleUnavailable,
  boundValues: (v) => ({ project_id: trimmed(v.project_id), bucket_name: trimmed(v.bucket_name) }),
  instructions: (v) => gcsInstructions({ email: serviceAccount().client_email, projectId: v.project_id, bucketName: v.bucket_name }),
  serviceAccount: (call) => serviceAccountInfo("storage", call, (email) => gcsInstructions({ email })),
  async test(v, call, input) {
    if (v.permission_type === "dataset_query_access") throw new ConnectionTestError(400, "dataset_query_access is a BigQuery permission type");
    const credentialId = await checkWithServiceAccount("storage", call, input.credentialId, (account) => checkBucketAccess(account, v.project_id!, v.bucket_name!));
    return { credentialId, message: `Connection successful: Tributary can write, read and delete objects in bucket ${v.bucket_name}.` };
  },
  config: (v, { credential }) => ({ ...googleConfig(v, credential), bucket_name: v.bucket_name }),
  update: (destination, body, retest) => updateGoogleDestination(destination, body, retest, { key: "bucket_name", missing: GCS_MESSAGES.bucket }),
  // Files under their own paths; rows as tables/<table>/<key>.json (GcsWriter).
  location: (destination, landed) => {
    const bucket = `gs://${String((destination.config as Record<string, unknown>).bucket_name ?? "")}`;
    const files = landed.folders.map((f) => `${bucket}/${f}`);
    const rows = landed.tables.map((t) => `${bucket}/tables/${t}/`);
    return [files.length ? `files in ${listed(files)}` : "", rows.length ? `rows in ${listed(rows)}` : ""].filter(Boolean).join("; ");
  },
  writer: async (destination) => {
    const config = destination.config as Record<string, string | undefined>;
    return new GcsWriter(platformServiceAccount(), config.project_id!, config.bucket_name!);
  },
};
