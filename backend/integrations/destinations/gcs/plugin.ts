import { gcsManifest } from "../../../../contract/integrations/gcs.js";
import { DESTINATION_MESSAGES as M } from "../../../../contract/destinations.js";
import { ConnectionTestError, type DestinationPlugin } from "../plugin.js";
import { checkBucketAccess, platformServiceAccount } from "../kit/google.js";
import { checkWithServiceAccount, googleConfig, serviceAccount, serviceAccountInfo } from "../kit/google-access.js";
import { gcsInstructions } from "./instructions.js";
import { GcsWriter } from "./writer.js";

interface GcsSettings extends Record<string, unknown> {
  project_id?: string;
  bucket_name?: string;
  permission_type?: string;
}

const s = (x: unknown) => (typeof x === "string" ? x.trim() : "");

/** Cloud Storage: objects as named, rows as one JSON object per key, written by the platform's service account. */
export const gcsPlugin: DestinationPlugin<GcsSettings> = {
  manifest: gcsManifest,
  authPaths: ["storage", "gcs"],
  boundValues: (v) => ({ project_id: s(v.project_id), bucket_name: s(v.bucket_name) }),
  instructions: (v) => gcsInstructions({ email: serviceAccount().client_email, projectId: v.project_id, bucketName: v.bucket_name }),
  serviceAccount: (call) => serviceAccountInfo("storage", call, (email) => gcsInstructions({ email })),
  async test(v, call, input) {
    if (v.permission_type === "dataset_query_access") throw new ConnectionTestError(400, "dataset_query_access is a BigQuery permission type");
    const credentialId = await checkWithServiceAccount("storage", call, input.credentialId, (account) => checkBucketAccess(account, v.project_id!, v.bucket_name!));
    return { credentialId, message: `Connection successful: Tributary can write, read and delete objects in bucket ${v.bucket_name}.` };
  },
  config: (v, { credential }) => ({ ...googleConfig(v, credential), bucket_name: v.bucket_name }),
  async update(destination, body, retest) {
    const config = destination.config as Record<string, unknown>;
    if (!body.project_id) throw new ConnectionTestError(400, M.projectId);
    if (!body.bucket_name) throw new ConnectionTestError(400, M.bucket);
    const next = { project_id: s(body.project_id), bucket_name: s(body.bucket_name) };
    if (!Object.entries(next).some(([k, value]) => (config[k] ?? "") !== value)) return { config, credentialId: destination.credential_id };
    const credential = await retest({ ...body, ...next, credential_id: (body.credential_id as string | undefined) ?? destination.credential_id ?? undefined });
    return { config: { ...config, ...next, service_account_email: credential.metadata.service_account_email ?? config.service_account_email }, credentialId: credential.id };
  },
  writer: async (destination) => {
    const config = destination.config as Record<string, string | undefined>;
    return new GcsWriter(platformServiceAccount(), config.project_id!, config.bucket_name!);
  },
};
