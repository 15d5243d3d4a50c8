import type { Destination } from "../../../contract/destinations.js";
import type { SecretBox } from "../../lib/crypto.js";
import type { Database } from "../../db/client.js";
import { findCredential } from "../../db/destinations.js";
import { BigQueryWriter, GcsWriter } from "./cloud-writers.js";
import { platformServiceAccount } from "./google.js";
import { BULK_ROWS, LocalWriter, resolveLocalRoot } from "./local.js";
import { SnowflakeWriter } from "./snowflake.js";
import type { DestinationWriter } from "./writer.js";

export type { DestinationWriter, DestinationObject, Row } from "./writer.js";

/**
 * The writer for one of the owner's destinations (the sync engine's entry point). `bulk`: a large load
 * whose caller flushes at the end; writers that gain by it gather rows before writing them.
 */
export async function writerFor(
  destination: Destination,
  ownerId: string,
  services: { db: Database; secrets: SecretBox; config: { DATA_DIR: string } },
  options: { bulk?: boolean } = {},
): Promise<DestinationWriter> {
  const config = destination.config as Record<string, string | undefined>;
  switch (destination.integration_name) {
    case "local":
      return new LocalWriter(resolveLocalRoot(services.config.DATA_DIR, config.folder!), { holdRows: options.bulk ? BULK_ROWS : 0 });
    case "storage":
      return new GcsWriter(platformServiceAccount(), config.project_id!, config.bucket_name!);
    case "bigquery":
      return new BigQueryWriter(platformServiceAccount(), config.project_id!, config.dataset_name!);
    case "snowflake":
    case "snowflake_stage": {
      const credential = await findCredential(services.db, ownerId, destination.credential_id ?? undefined);
      if (!credential?.secret) throw new Error(`Destination ${destination.id} has no Snowflake credential`);
      const { password } = services.secrets.open<{ password: string }>(credential.secret);
      return new SnowflakeWriter(
        { account: config.account!, user: config.user!, password, warehouse: config.warehouse, database: config.database!, schema: config.schema!, stageName: config.stage_name },
        destination.integration_name,
      );
    }
    default:
      throw new Error(`No writer for destination type ${destination.integration_name}`);
  }
}
