import type { DestinationManifest } from "../../../contract/integrations/types.js";
import type { Destination, IntegrationInstructions } from "../../../contract/destinations.js";
import type { Database } from "../../db/client.js";
import type { SecretBox } from "../../lib/crypto.js";
import type { Logger } from "../../lib/log.js";
import type { DestinationWriter } from "./writer.js";
import type { Warehouse } from "./warehouse.js";

/**
 * A destination plug-in (one folder under backend/integrations/destinations/<name>/), in the spirit of
 * Airbyte's `check` / `write` and dlt's one folder per destination. The HTTP routers, the sync engine and
 * the transforms find everything about a destination through its plug-in, by name, in registry.ts.
 */

/** What a plug-in may use: the database (its credentials), the secret box, the server's settings. */
export interface DestinationServices {
  db: Database;
  secrets: SecretBox;
  config: { DATA_DIR: string; TRIBUTARY_SECRET_KEY: string };
  log?: Logger;
}

/** The signed-in user a call is for. */
export interface DestinationCall {
  ownerId: string;
  services: DestinationServices;
}

/** A connection test that failed for a reason the user can fix: answered with `status` and `message` as is. */
export class ConnectionTestError extends Error {
  constructor(
    readonly status: 400 | 422 | 502 | 504,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** What a successful test proves and keeps: the credential holding its secret, and the values it tested. */
export interface TestedConnection {
  credentialId: string;
  /** Shown to the user ("Connection successful"). */
  message: string;
}

export interface DestinationPlugin<Settings extends Record<string, unknown> = Record<string, unknown>> {
  manifest: DestinationManifest;
  /** null when it can be used on this server, else a plain sentence saying why not (the operator's detail goes to the log). */
  unavailable?(): string | null;
  /** The values a connection test proves; create and update must present a token over the same (validation-token.ts). */
  boundValues(settings: Partial<Settings>): Record<string, string>;
  /** POST /externalauth/<name>/get_instructions: what to grant, with the statements to run. */
  instructions?(settings: Partial<Settings>, call: DestinationCall): Promise<IntegrationInstructions> | IntegrationInstructions;
  /** POST /externalauth/<name>/test_connection: checks access; throws ConnectionTestError for what the user can fix. */
  test?(settings: Settings, call: DestinationCall): Promise<TestedConnection>;
  /** The non-secret config stored on a new destination from its (tested) settings. */
  config(settings: Settings, call: DestinationCall & { destinationId: string }): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** The writer a sync writes through. `bulk`: a large load whose caller flushes at the end. */
  writer(destination: Destination, call: DestinationCall, options?: { bulk?: boolean }): Promise<DestinationWriter>;
  /** Where transforms read a connector's rows and write their results (warehouse plug-ins only). */
  warehouse?(destination: Destination, call: DestinationCall): Warehouse;
}
