import type { TransformSetup } from "../plugin.js";
import { resultsInput, setting, settings } from "../kit/transform-setup.js";

/** The transform wizard's Snowflake texts (both variants): the user's role reads the synced schema and writes a results schema. */
export const snowflakeTransformSetup: TransformSetup = {
  label: "Snowflake",
  resultsLocation: (target) => resultsInput("results_schema", "Results schema", { default: setting(target, "schema", undefined), placeholder: "TRIBUTARY_RESULTS", description: "The Snowflake schema (in the destination's database) the result tables are written to (it must exist)." }),
  readGrants(target) {
    const { database: db, schema, warehouse: wh, user } = settings(target, { database: "<DATABASE>", schema: "<SCHEMA>", warehouse: "<WAREHOUSE>", user: "<USER>" });
    return {
      description: `The Snowflake user ${user} needs to read the synced tables in ${db}.${schema}.`,
      instructions: ["Run these statements as a role that owns the database (e.g. ACCOUNTADMIN), replacing TRIBUTARY_ROLE with the role of the user."],
      sql: [
        `GRANT USAGE ON WAREHOUSE ${wh} TO ROLE TRIBUTARY_ROLE;`,
        `GRANT USAGE ON DATABASE ${db} TO ROLE TRIBUTARY_ROLE;`,
        `GRANT USAGE ON SCHEMA ${db}.${schema} TO ROLE TRIBUTARY_ROLE;`,
        `GRANT SELECT ON ALL TABLES IN SCHEMA ${db}.${schema} TO ROLE TRIBUTARY_ROLE;`,
        `GRANT SELECT ON FUTURE TABLES IN SCHEMA ${db}.${schema} TO ROLE TRIBUTARY_ROLE;`,
        `GRANT ROLE TRIBUTARY_ROLE TO USER ${user};`,
      ].join("\n"),
    };
  },
  writeGrants(target) {
    const db = setting(target, "database", "<DATABASE>");
    return {
      description: "The result tables are created (and merged into) in a schema of the destination's database.",
      instructions: ["Replace <RESULTS_SCHEMA> with the results schema below and run as the schema's owner."],
      sql: [
        `GRANT USAGE ON SCHEMA ${db}.<RESULTS_SCHEMA> TO ROLE TRIBUTARY_ROLE;`,
        `GRANT CREATE TABLE ON SCHEMA ${db}.<RESULTS_SCHEMA> TO ROLE TRIBUTARY_ROLE;`,
        `GRANT INSERT, UPDATE, SELECT ON FUTURE TABLES IN SCHEMA ${db}.<RESULTS_SCHEMA> TO ROLE TRIBUTARY_ROLE;`,
      ].join("\n"),
    };
  },
};
