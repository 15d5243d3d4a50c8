import { PASSWORD_PLACEHOLDER, type IntegrationInstructions, type InstructionStep } from "../../../../contract/destinations.js";
import type { PostgresSettings } from "../../../../contract/integrations/postgres.js";
import { ident } from "./connect.js";

/** A name as the SQL shows it: quoted when given (it is then exactly that name), a placeholder when not. */
const named = (value: string | undefined, placeholder: string) => (value?.trim() ? ident(value.trim()) : placeholder);

/**
 * Setup SQL for a PostgreSQL destination: a login role holding only what Tributary needs. The password goes in an
 * E'' string, where the app's copy button escapes it correctly (quotes and backslashes doubled).
 */
export function postgresInstructions(input: Partial<PostgresSettings>): IntegrationInstructions & { sql: string } {
  const user = named(input.user, ident("tributary"));
  const database = named(input.database, "<DATABASE>");
  const schema = named(input.schema, "<SCHEMA>");
  const steps: InstructionStep[] = [
    {
      title: "Create the user",
      description: `A login role for Tributary alone. Put your chosen password in place of ${PASSWORD_PLACEHOLDER} (the copy button does it for you).`,
      sql: `CREATE ROLE ${user} LOGIN PASSWORD E'${PASSWORD_PLACEHOLDER}';`,
      fields: ["user", "password"],
    },
    {
      title: "Let it into the database",
      description: `The user may connect to ${database}, and create the schema if it does not exist yet.`,
      sql: `GRANT CONNECT, CREATE ON DATABASE ${database} TO ${user};`,
      fields: ["database", "user"],
    },
    {
      title: "Create the schema and grant it",
      description: `Tributary creates its tables in ${schema} (and adds columns to them as records gain fields). Connected to ${database}, run:`,
      sql: [`CREATE SCHEMA IF NOT EXISTS ${schema};`, `GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${user};`].join("\n"),
      fields: ["schema", "user"],
    },
    {
      title: "Allow the connection",
      description:
        "Let this server reach yours: open the port in your firewall and add a line for the user to pg_hba.conf (hostssl: Tributary connects to a server on the internet over TLS only, checking its certificate). Then test the connection.",
    },
  ];
  const sql = steps
    .filter((s) => s.sql)
    .map((s) => `-- ${s.title}\n${s.sql}`)
    .join("\n\n");
  return {
    title: "Set up PostgreSQL for Tributary",
    description: "Run this SQL in psql (or any SQL client) as a superuser or the database's owner, then test the connection.",
    instructions: steps.map((s) => `${s.title}: ${s.description}`),
    steps,
    sql,
  };
}
