import type { IntegrationInstructions, InstructionStep, PermissionType } from "../../../../contract/destinations.js";
import { grantSteps, type GoogleGrant } from "../kit/google-access.js";

/** Numbered setup steps for granting the platform's service account access to a dataset (or, for transforms, queries). */
export function bigqueryInstructions(input: GoogleGrant & { datasetName?: string; permissionType?: PermissionType }): IntegrationInstructions {
  const project = input.projectId || "<PROJECT_ID>";
  const member = `serviceAccount:${input.email}`;
  let steps: InstructionStep[];
  let title: string;
  let description: string;
  if (input.permissionType === "dataset_query_access") {
    const dataset = input.datasetName;
    title = "Let Tributary query your BigQuery data";
    description = `Transforms run queries as the service account ${input.email}. It needs to run jobs in project ${project} and to read the datasets the transforms use.`;
    steps = [
      {
        title: "Allow query jobs",
        description: `In IAM & Admin › IAM for project ${project}, click Grant access, enter ${input.email} and give it BigQuery Job User (roles/bigquery.jobUser). Or run: gcloud projects add-iam-policy-binding ${project} --member=${member} --role=roles/bigquery.jobUser`,
      },
      {
        title: "Allow reading the data",
        description: dataset
          ? `In BigQuery, open dataset ${dataset}, choose Sharing › Permissions › Add principal, enter ${input.email} and give it BigQuery Data Viewer (roles/bigquery.dataViewer).`
          : `For each dataset the transforms read, open it in BigQuery, choose Sharing › Permissions › Add principal, enter ${input.email} and give it BigQuery Data Viewer (roles/bigquery.dataViewer).`,
      },
      { title: "Test", description: "Come back here and test the connection: Tributary dry-runs a query in the project." },
    ];
  } else {
    const dataset = input.datasetName || "<DATASET_NAME>";
    title = "Give Tributary access to your BigQuery dataset";
    description = `Tributary loads data into the dataset as the service account ${input.email}. Grant it access to one dataset and the right to run jobs.`;
    steps = [
      { title: "Create the dataset", description: `In the Google Cloud console, open BigQuery in project ${project} and create the dataset ${dataset} if it does not exist.` },
      {
        title: "Share the dataset",
        description: `Open dataset ${dataset}, choose Sharing › Permissions › Add principal, enter ${input.email} and give it BigQuery Data Editor (roles/bigquery.dataEditor).`,
      },
      {
        title: "Allow jobs in the project",
        description: `In IAM & Admin › IAM for project ${project}, grant ${input.email} the role BigQuery Job User (roles/bigquery.jobUser). Or run: gcloud projects add-iam-policy-binding ${project} --member=${member} --role=roles/bigquery.jobUser`,
      },
      { title: "Authenticate", description: "Come back here and click Authenticate: Tributary reads the dataset and dry-runs a query." },
    ];
  }
  return grantSteps(title, description, steps, input.email);
}
