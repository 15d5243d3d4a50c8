import { bigqueryManifest } from "../../../../contract/integrations/bigquery.js";
import { DESTINATION_MESSAGES as M, type PermissionType } from "../../../../contract/destinations.js";
import { ConnectionTestError, type DestinationPlugin } from "../plugin.js";
import { checkDatasetAccess, platformServiceAccount } from "../kit/google.js";
import { checkWithServiceAccount, googleConfig, serviceAccount, serviceAccountInfo } from "../kit/google-access.js";
import { bigqueryInstructions } from "./instructions.js";
import { BigQueryWarehouse } from "./warehouse.js";
import { bigqueryTransformSetup } from "./transform-setup.js";
import { BigQueryWriter } from "./writer.js";

interface BigQuerySettings extends Record<string, unknown> {
  project_id?: string;
  dataset_name?: string;
  permission_type?: PermissionType;
}

const s = (x: unknown) => (typeof x === "string" ? x.trim() : "");

/** BigQuery: rows loaded into a staging table and merged on their key, by the platform's service account. */
export const bigqueryPlugin: DestinationPlugin<BigQuerySettings> = {
  manifest: bigqueryManifest,
  boundValues: (v) => ({ project_id: s(v.project_id), dataset_name: s(v.dataset_name), permission_type: v.permission_type ?? "dataset_write" }),
  instructions: (v) =>
    bigqueryInstructions({ email: serviceAccount().client_email, projectId: v.project_id, datasetName: v.dataset_name, permissionType: v.permission_type }),
  serviceAccount: (call) => serviceAccountInfo("bigquery", call, (email) => bigqueryInstructions({ email })),
  async test(v, call, input) {
    const credentialId = await checkWithServiceAccount("bigquery", call, input.credentialId, (account) => checkDatasetAccess(account, v.project_id!, v.dataset_name));
    return {
      credentialId,
      message: `Connection successful: Tributary can ${v.dataset_name ? `read dataset ${v.dataset_name} and ` : ""}run queries in project ${v.project_id}.`,
    };
  },
  config: (v, { credential }) => ({ ...googleConfig(v, credential), dataset_name: v.dataset_name ?? "", permission_type: v.permission_type ?? "dataset_write" }),
  async update(destination, body, retest) {
    const config = destination.config as Record<string, unknown>;
    const permission = (config.permission_type as PermissionType | undefined) ?? "dataset_write";
    if (!body.project_id) throw new ConnectionTestError(400, M.projectId);
    if (permission !== "dataset_query_access" && !body.dataset_name) throw new ConnectionTestError(400, M.dataset);
    const next = { project_id: s(body.project_id), dataset_name: s(body.dataset_name) };
    if (!Object.entries(next).some(([k, value]) => (config[k] ?? "") !== value)) return { config, credentialId: destination.credential_id };
    const credential = await retest({
      ...body,
      ...next,
      permission_type: permission,
      credential_id: (body.credential_id as string | undefined) ?? destination.credential_id ?? undefined,
    });
    return { config: { ...config, ...next, service_account_email: credential.metadata.service_account_email ?? config.service_account_email }, credentialId: credential.id };
  },
  writer: async (destination) => {
    const config = destination.config as Record<string, string | undefined>;
    return new BigQueryWriter(platformServiceAccount(), config.project_id!, config.dataset_name!);
  },
  warehouse: (destination) => new BigQueryWarehouse(destination),
  transformSetup: bigqueryTransformSetup,
};
