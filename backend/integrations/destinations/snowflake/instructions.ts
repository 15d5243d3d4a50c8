import { PASSWORD_PLACEHOLDER, type IntegrationInstructions, type InstructionStep } from "../../../../contract/destinations.js";

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
