import type { TransformSetup } from "../plugin.js";
import { resultsInput, setting, settings } from "../kit/transform-setup.js";
import { ident } from "./connect.js";

/** The transform wizard's PostgreSQL texts: the destination's user reads the synced schema and writes a results schema. */
export const postgresTransformSetup: TransformSetup = {
  label: "PostgreSQL",
  resultsLocation: (target) => resultsInput("results_schema", "Results schema", { default: setting(target, "schema", undefined), placeholder: "tributary_results", description: "The schema (in the destination's database) the result tables are written to; Tributary creates it if the user may." }),
  readGrants(target) {
    const { schema, user } = settings(target, { schema: "<SCHEMA>", user: "<USER>" }, ident);
    return {
      description: `The user ${user} reads the synced tables in schema ${schema}: it created them, so it already may, unless another role owns them.`,
      instructions: ["Only if the tables belong to another role, run these statements as their owner."],
      sql: [`GRANT USAGE ON SCHEMA ${schema} TO ${user};`, `GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${user};`].join("\n"),
    };
  },
  writeGrants(target) {
    const { database, user } = settings(target, { database: "<DATABASE>", user: "<USER>" }, ident);
    return {
      description: `The result tables are created (and upserted into) in a schema of database ${database}.`,
      instructions: ["Replace <RESULTS_SCHEMA> with the results schema below and run as the database's owner (not needed for the destination's own schema)."],
      sql: ["CREATE SCHEMA IF NOT EXISTS <RESULTS_SCHEMA>;", `GRANT USAGE, CREATE ON SCHEMA <RESULTS_SCHEMA> TO ${user};`].join("\n"),
    };
  },
};
