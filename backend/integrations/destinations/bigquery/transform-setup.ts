import type { TransformSetup } from "../plugin.js";

const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);

/** The transform wizard's BigQuery texts: the platform's service account reads the dataset and writes a results dataset. */
export const bigqueryTransformSetup: TransformSetup = {
  label: "BigQuery",
  resultsLocation: (target) => ({
    key: "results_dataset",
    label: "Results dataset",
    type: "string",
    default: str(target.config.dataset_name),
    placeholder: "tributary_results",
    required: true,
    description: "The BigQuery dataset the result tables are written to (it must exist).",
  }),
  readGrants(target) {
    const project = str(target.config.project_id) ?? "<project>";
    const dataset = str(target.config.dataset_name) ?? "<dataset>";
    const account = target.service_account_email ?? "<the platform service account>";
    return {
      description: `The platform's service account ${account} needs to query the dataset ${project}.${dataset}.`,
      instructions: [`Grant ${account} the BigQuery Data Viewer role on the dataset ${project}.${dataset}.`, `Grant it the BigQuery Job User role on the project ${project} so that it can run queries.`],
      sql: `GRANT \`roles/bigquery.dataViewer\` ON SCHEMA \`${project}.${dataset}\` TO "serviceAccount:${account}";`,
    };
  },
  writeGrants(target) {
    const project = str(target.config.project_id) ?? "<project>";
    const account = target.service_account_email ?? "<the platform service account>";
    return {
      description: `The result tables are created in a dataset of ${project}; the service account needs to write there.`,
      instructions: [`Grant ${account} the BigQuery Data Editor role on the results dataset.`],
      sql: `GRANT \`roles/bigquery.dataEditor\` ON SCHEMA \`${project}.<results dataset>\` TO "serviceAccount:${account}";`,
    };
  },
};
