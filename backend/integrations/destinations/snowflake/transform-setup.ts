import type { TransformSetup } from "../plugin.js";

const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);

/** The transform wizard's Snowflake texts (both variants): the user's role reads the synced schema and writes a results schema. */
export const snowflakeTransformSetup: TransformSetup = {
  label: "Snowflake",
  resultsLocation: (target) => ({
    key: "results_schema",
    label: "Results schema",
    type: "string",
    default: str(target.config.schema),
    placeholder: "TRIBUTARY_RESULTS",
    required: true,
    description: "The Snowflake schema (in the destination's database) the result tables are written to (it must exist).",
  }),
  readGrants(target) {
    const c = target.config;
    const db = str(c.database) ?? "<DATABASE>";
    const schema = str(c.schema) ?? "<SCHEMA>";
    const wh = str(c.warehouse) ?? "<WAREHOUSE>";
    const user = str(c.user) ?? "<USER>";
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
    const db = str(target.config.database) ?? "<DATABASE>";
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
