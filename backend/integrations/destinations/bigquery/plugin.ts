import { BIGQUERY_MESSAGES, bigqueryManifest } from "../../../../contract/integrations/bigquery.js";
import type { PermissionType } from "../../../../contract/destinations.js";
import { listed, type DestinationPlugin } from "../plugin.js";
import { checkDatasetAccess, platformServiceAccount } from "../kit/google.js";
import { checkWithServiceAccount, googleConfig, googleUnavailable, serviceAccount, serviceAccountInfo, trimmed, updateGoogleDestination, type GoogleSettings } from "../kit/google-access.js";
import { bigqueryInstructions } from "./instructions.js";
import { BigQueryWarehouse } from "./warehouse.js";
import { bigqueryTransformSetup } from "./transform-setup.js";
import { BigQueryWriter } from "./writer.js";

/** BigQuery: rows loaded into a staging table and merged on their key, by the platform's service account. */
export const bigqueryPlugin: DestinationPlugin<GoogleSettings<"dataset_name">> = {
  manifest: bigqueryManifest,
  unavailable: googleUnavailable,
  boundValues: (v) => ({ project_id: trimmed(v.project_id), dataset_name: trimmed(v.dataset_name), permission_type: v.permission_type ?? "dataset_write" }),
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
  update(destination, body, retest) {
    const permission = ((destination.config as Record<string, unknown>).permission_type as PermissionType | undefined) ?? "dataset_write";
    const missing = permission === "dataset_query_access" ? null : BIGQUERY_MESSAGES.dataset;
    return updateGoogleDestination(destination, body, retest, { key: "dataset_name", missing, retestWith: { permission_type: permission } });
  },
  // Files as rows of an `objects` table next to the others (BigQueryWriter).
  location: (destination, landed) => {
    const config = destination.config as Record<string, unknown>;
    const tables = [...(landed.folders.length ? ["objects"] : []), ...landed.tables];
    return `BigQuery ${String(config.project_id ?? "")}.${String(config.dataset_name ?? "")}: tables ${listed(tables)}`;
  },
  writer: async (destination) => {
    const config = destination.config as Record<string, string | undefined>;
    return new BigQueryWriter(platformServiceAccount(), config.project_id!, config.dataset_name!);
  },
  warehouse: (destination) => new BigQueryWarehouse(destination),
  transformSetup: bigqueryTransformSetup,
};
