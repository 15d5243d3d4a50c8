import { DEFAULT_POSTGRES_PORT, POSTGRES_MESSAGES, postgresManifest, type PostgresSettings } from "../../../../contract/integrations/postgres.js";
import { findCredential, insertCredential } from "../../../db/destinations.js";
import { ConnectionTestError, listed, type DestinationCall, type DestinationPlugin, type PluginDestination } from "../plugin.js";
import { checkPostgresAccess } from "./check.js";
import type { PostgresTarget } from "./connect.js";
import { postgresInstructions } from "./instructions.js";
import { postgresTransformSetup } from "./transform-setup.js";
import { PostgresWarehouse } from "./warehouse.js";
import { OBJECTS_TABLE, PostgresWriter } from "./writer.js";

const s = (x: unknown) => (typeof x === "string" ? x.trim() : "");
/** A host name compares without case (and without the brackets an IPv6 address may come in). */
const hostOf = (x: unknown) => s(x).toLowerCase();
const portOf = (x: unknown) => (x === undefined || x === null || x === "" ? DEFAULT_POSTGRES_PORT : Number(x));

/** What a destination stores (never the password: its credential holds it, sealed). */
function configOf(v: Partial<PostgresSettings>) {
  return { host: hostOf(v.host), port: portOf(v.port), database: s(v.database), schema: s(v.schema), user: s(v.user) };
}

/** The destination's server, database, schema and user, and the password from its sealed credential. */
async function targetOf(destination: PluginDestination, call: DestinationCall): Promise<PostgresTarget> {
  const credential = await findCredential(call.services.db, call.ownerId, destination.credentialId ?? undefined);
  if (!credential?.secret) throw new Error(`The PostgreSQL destination "${destination.name}" has no stored credential`);
  const { password } = call.services.secrets.open<{ password: string }>(credential.secret);
  return { ...configOf(destination.config as Partial<PostgresSettings>), password };
}

/** PostgreSQL: tables upserted on their record keys, transcript files as rows of tributary_objects; a transforms warehouse. */
export const postgresPlugin: DestinationPlugin<PostgresSettings> = {
  manifest: postgresManifest,
  boundValues: (v) => {
    const c = configOf(v);
    return { host: c.host, port: String(c.port), database: c.database, schema: c.schema, user: c.user };
  },
  instructions: (v) => postgresInstructions(v),
  async test(v, call) {
    if (!v.password) throw new ConnectionTestError(400, POSTGRES_MESSAGES.password);
    const target = { ...configOf(v), password: v.password };
    await checkPostgresAccess(target);
    const credential = await insertCredential(call.services.db, call.ownerId, {
      integrationName: postgresManifest.name,
      secret: call.services.secrets.seal({ password: v.password }),
      metadata: { host: target.host, port: target.port, user: target.user },
    });
    return { credentialId: credential.id, message: "Connection successful" };
  },
  config: (v) => configOf(v),
  // Files as rows of tributary_objects, next to the tables (PostgresWriter).
  location: (destination, landed) => {
    const c = configOf(destination.config as Partial<PostgresSettings>);
    const tables = [...(landed.folders.length ? [OBJECTS_TABLE] : []), ...landed.tables];
    return `PostgreSQL ${c.host}:${c.port}/${c.database}, schema ${c.schema}: tables ${listed(tables)}`;
  },
  writer: async (destination, call) => new PostgresWriter(await targetOf(destination, call)),
  warehouse: (destination, call) => new PostgresWarehouse(() => targetOf(destination, call)),
  transformSetup: postgresTransformSetup,
};
