import { findCredential } from "../../../db/destinations.js";
import type { DestinationCall, PluginDestination } from "../plugin.js";
import type { SnowflakeTarget } from "./client.js";

/** The account a Snowflake destination writes to, its password opened from the stored credential. */
export async function snowflakeTarget(destination: PluginDestination, { ownerId, services }: DestinationCall): Promise<SnowflakeTarget> {
  const config = destination.config as Record<string, string | undefined>;
  const credential = await findCredential(services.db, ownerId, destination.credentialId ?? undefined);
  if (!credential?.secret) throw new Error(`The Snowflake destination "${destination.name}" has no stored credential`);
  const { password } = services.secrets.open<{ password: string }>(credential.secret);
  return {
    account: config.account!,
    user: config.user!,
    password,
    warehouse: config.warehouse,
    database: config.database!,
    schema: config.schema!,
    stageName: config.stage_name,
  };
}
