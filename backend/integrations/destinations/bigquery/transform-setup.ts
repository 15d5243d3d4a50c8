import type { TransformSetup } from "../plugin.js";
import { resultsInput, setting, settings } from "../kit/transform-setup.js";

/** The transform wizard's BigQuery texts: the platform's service account reads the dataset and writes a results dataset. */
export const bigqueryTransformSetup: TransformSetup = {
  label: "BigQuery",
  resultsLocation: (target) => resultsInput("results_dataset", "Results dataset", { default: setting(target, "dataset_name", undefined), placeholder: "tributary_results", description: "The BigQuery dataset the result tables are written to (it must exist)." }),
  readGrants(target) {
    const { project_id: project, dataset_name: dataset } = settings(target, { project_id: "<project>", dataset_name: "<dataset>" });
    const account = target.service_account_email ?? "<the platform service account>";
    return {
      description: `The platform's service account ${account} needs to query the dataset ${project}.${dataset}.`,
      instructions: [`Grant ${account} the BigQuery Data Viewer role on the dataset ${project}.${dataset}.`, `Grant it the BigQuery Job User role on the project ${project} so that it can run queries.`],
      sql: `GRANT \`roles/bigquery.dataViewer\` ON SCHEMA \`${project}.${dataset}\` TO "serviceAccount:${account}";`,
    };
  },
  writeGrants(target) {
    const project = setting(target, "project_id", "<project>");
    const account = target.service_account_email ?? "<the platform service account>";
    return {
      description: `The result tables are created in a dataset of ${project}; the service account needs to write there.`,
      instructions: [`Grant ${account} the BigQuery Data Editor role on the results dataset.`],
      sql: `GRANT \`roles/bigquery.dataEditor\` ON SCHEMA \`${project}.<results dataset>\` TO "serviceAccount:${account}";`,
    };
  },
};
