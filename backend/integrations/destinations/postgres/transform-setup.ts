import type { TransformSetup, WarehouseTarget } from "../plugin.js";
import { ident } from "./connect.js";

const named = (target: WarehouseTarget, key: string, placeholder: string) => {
  const value = target.config[key];
  return typeof value === "string" && value ? ident(value) : placeholder;
};

/** The transform wizard's PostgreSQL texts: the destination's user reads the synced schema and writes a results schema. */
export const postgresTransformSetup: TransformSetup = {
  label: "PostgreSQL",
  resultsLocation: (target) => ({
    key: "results_schema",
    label: "Results schema",
    type: "string",
    default: typeof target.config.schema === "string" ? target.config.schema : undefined,
    placeholder: "tributary_results",
    required: true,
    description: "The schema (in the destination's database) the result tables are written to; Tributary creates it if the user may.",
  }),
  readGrants(target) {
    const schema = named(target, "schema", "<SCHEMA>");
    const user = named(target, "user", "<USER>");
    return {
      description: `The user ${user} reads the synced tables in schema ${schema}: it created them, so it already may, unless another role owns them.`,
      instructions: ["Only if the tables belong to another role, run these statements as their owner."],
      sql: [`GRANT USAGE ON SCHEMA ${schema} TO ${user};`, `GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${user};`].join("\n"),
    };
  },
  writeGrants(target) {
    const database = named(target, "database", "<DATABASE>");
    const user = named(target, "user", "<USER>");
    return {
      description: `The result tables are created (and upserted into) in a schema of database ${database}.`,
      instructions: ["Replace <RESULTS_SCHEMA> with the results schema below and run as the database's owner (not needed for the destination's own schema)."],
      sql: ["CREATE SCHEMA IF NOT EXISTS <RESULTS_SCHEMA>;", `GRANT USAGE, CREATE ON SCHEMA <RESULTS_SCHEMA> TO ${user};`].join("\n"),
    };
  },
};
