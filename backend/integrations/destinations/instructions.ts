import { PASSWORD_PLACEHOLDER, type IntegrationInstructions, type InstructionStep, type PermissionType } from "../../../contract/destinations.js";

/** Numbered setup steps for granting the platform's service account access (Cloud Storage / BigQuery). */
export function googleInstructions(input: {
  integration: "storage" | "bigquery";
  email: string;
  projectId?: string;
  bucketName?: string;
  datasetName?: string;
  permissionType?: PermissionType;
}): IntegrationInstructions {
  const project = input.projectId || "<PROJECT_ID>";
  const member = `serviceAccount:${input.email}`;
  let steps: InstructionStep[];
  let title: string;
  let description: string;
  if (input.integration === "storage") {
    const bucket = input.bucketName || "<BUCKET_NAME>";
    title = "Give Tributary access to your Cloud Storage bucket";
    description = `Tributary writes to the bucket as the service account ${input.email}. Grant it access to one bucket; nothing else in your project is shared.`;
    steps = [
      { title: "Open the bucket", description: `In the Google Cloud console, open Cloud Storage › Buckets in project ${project} and select ${bucket} (create it first if it does not exist).` },
      { title: "Add the service account", description: `On the bucket's Permissions tab, click Grant access and enter ${input.email} as a new principal.` },
      {
        title: "Choose the role",
        description: `Give it the role Storage Object Admin (roles/storage.objectAdmin): it creates, reads and deletes objects in this bucket only. Or run: gcloud storage buckets add-iam-policy-binding gs://${bucket} --member=${member} --role=roles/storage.objectAdmin`,
      },
      { title: "Authenticate", description: "Save, come back here and click Authenticate: Tributary writes, reads and deletes a small test object." },
    ];
  } else if (input.permissionType === "dataset_query_access") {
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
  return {
    title,
    description,
    instructions: steps.map((s) => `${s.title}: ${s.description}`),
    steps,
    service_account_email: input.email,
  };
}

/** Setup SQL for a Snowflake destination, in the style of the usual loaders' setup scripts. */
export function snowflakeInstructions(input: {
  variant: "snowflake" | "snowflake_stage";
  user?: string;
  warehouse?: string;
  database?: string;
  schema?: string;
  stageName?: string;
}): IntegrationInstructions & { sql: string } {
  const user = (input.user || "TRIBUTARY_USER").toUpperCase();
  const role = `${user}_ROLE`;
  const database = (input.database || "<DATABASE>").toUpperCase();
  const schema = (input.schema || "<SCHEMA>").toUpperCase();
  const qualified = `${database}.${schema}`;
  const steps: InstructionStep[] = [];
  const userStep = [
    "USE ROLE SECURITYADMIN;",
    `CREATE ROLE IF NOT EXISTS ${role};`,
    `CREATE USER IF NOT EXISTS ${user}`,
    `  PASSWORD = '${PASSWORD_PLACEHOLDER}'`,
    `  DEFAULT_ROLE = ${role}`,
    ...(input.variant === "snowflake" ? [`  DEFAULT_WAREHOUSE = ${(input.warehouse || "<WAREHOUSE>").toUpperCase()}`] : []),
    "  MUST_CHANGE_PASSWORD = FALSE;",
    `GRANT ROLE ${role} TO USER ${user};`,
    `GRANT ROLE ${role} TO ROLE SYSADMIN;`,
  ].join("\n");
  steps.push({
    title: "Create the role and the user",
    description: `A role that holds only what Tributary needs, and the user ${user} that signs in with it. Put your chosen password in place of ${PASSWORD_PLACEHOLDER} (the copy button does it for you).`,
    sql: userStep,
    fields: ["user", "password"],
  });
  if (input.variant === "snowflake") {
    const warehouse = (input.warehouse || "<WAREHOUSE>").toUpperCase();
    steps.push({
      title: "Create the warehouse, database and schema",
      description: "An extra-small warehouse that suspends itself after a minute, and the database and schema the data lands in.",
      sql: [
        "USE ROLE SYSADMIN;",
        `CREATE WAREHOUSE IF NOT EXISTS ${warehouse}`,
        "  WAREHOUSE_SIZE = XSMALL AUTO_SUSPEND = 60 AUTO_RESUME = TRUE INITIALLY_SUSPENDED = TRUE;",
        `CREATE DATABASE IF NOT EXISTS ${database};`,
        `CREATE SCHEMA IF NOT EXISTS ${qualified};`,
      ].join("\n"),
      fields: ["warehouse", "database", "schema"],
    });
    steps.push({
      title: "Grant access",
      description: `The role may use the warehouse and create and write tables in ${qualified}.`,
      sql: [
        `GRANT USAGE ON WAREHOUSE ${warehouse} TO ROLE ${role};`,
        `GRANT USAGE ON DATABASE ${database} TO ROLE ${role};`,
        `GRANT USAGE, CREATE TABLE, CREATE VIEW ON SCHEMA ${qualified} TO ROLE ${role};`,
        `GRANT SELECT, INSERT, UPDATE, DELETE ON FUTURE TABLES IN SCHEMA ${qualified} TO ROLE ${role};`,
      ].join("\n"),
      fields: ["warehouse", "database", "schema"],
    });
  } else {
    const stage = (input.stageName || "<STAGE_NAME>").toUpperCase();
    steps.push({
      title: "Create the database, schema and stage",
      description: `An internal stage ${qualified}.${stage} that Tributary uploads files to.`,
      sql: ["USE ROLE SYSADMIN;", `CREATE DATABASE IF NOT EXISTS ${database};`, `CREATE SCHEMA IF NOT EXISTS ${qualified};`, `CREATE STAGE IF NOT EXISTS ${qualified}.${stage};`].join("\n"),
      fields: ["database", "schema", "stage_name"],
    });
    steps.push({
      title: "Grant access",
      description: `The role may read and write the stage ${stage}.`,
      sql: [
        `GRANT USAGE ON DATABASE ${database} TO ROLE ${role};`,
        `GRANT USAGE ON SCHEMA ${qualified} TO ROLE ${role};`,
        `GRANT READ, WRITE ON STAGE ${qualified}.${stage} TO ROLE ${role};`,
      ].join("\n"),
      fields: ["database", "schema", "stage_name"],
    });
  }
  const sql = steps.map((s) => `-- ${s.title}\n${s.sql}`).join("\n\n");
  return {
    title: input.variant === "snowflake" ? "Set up Snowflake for Tributary" : "Set up a Snowflake stage for Tributary",
    description: "Run this SQL in a Snowflake worksheet as a user with the SECURITYADMIN and SYSADMIN roles, then test the connection.",
    instructions: steps.map((s) => `${s.title}: ${s.description}`),
    steps,
    sql,
  };
}
