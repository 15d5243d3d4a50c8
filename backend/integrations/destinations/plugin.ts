import type { DestinationManifest } from "../../../contract/integrations/types.js";
import type { IntegrationInstructions, ServiceAccountInfo } from "../../../contract/destinations.js";
import type { RequirementInput, SetupStep } from "../../../contract/transforms.js";
import type { CredentialRow, DestinationRow } from "../../db/destinations.js";
import type { Database } from "../../db/client.js";
import type { SecretBox } from "../../lib/crypto.js";
import type { Logger } from "../../lib/log.js";
import type { DestinationWriter } from "./writer.js";
import type { Warehouse } from "./warehouse.js";

/*
 * Changes to the lead's draft (settled; later changes only add optional members):
 * - DestinationServices.config is `{ DATA_DIR }` only: writerFor's callers have no secret key, and the routers sign
 *   the validation tokens themselves (from boundValues).
 * - test(settings, call, input): `input.credentialId` is the credential the body names (Google's service-account
 *   credential); a plug-in holding a secret seals it into a new credential itself (insertCredential) and answers its id.
 *   The router has already parsed `settings` with manifest.settings and its required-field rules ("test").
 * - config(settings, call): `call.credential` is the verified credential of the test (null without needsConnectionTest).
 * - Optional: authPaths, pathVariant (Snowflake's path serves the stage variant), serviceAccount (Google),
 *   update (editable settings; none = only name and description change), transformSetup (the transform wizard's texts),
 *   embedded (the local warehouse: transforms prefer another).
 * - Manifests (contract/integrations/<name>.ts) import optionalField / requireField / DestinationContract from
 *   contract/integrations/settings.ts, NOT from contract/integrations/destinations.ts: that list imports every manifest,
 *   and the import cycle leaves a manifest undefined in it.
 * - The router answers ConnectionTestError as `{ message }` with its status; any other error of test() is a 502
 *   "Connection test failed: <first line>" — throw ConnectionTestError for everything the user should read.
 */

/**
 * What a plug-in is given of a stored destination: fields of its row (backend/db/destinations.ts), never the API's
 * answer. Its config is the non-secret one stored at create; a secret is opened from its credential by the plug-in.
 */
export type PluginDestination = Pick<DestinationRow, "id" | "name" | "integrationName" | "config" | "credentialId">;

/** What a plug-in may use: the database (its credentials), the secret box, the server's data folder. */
export interface DestinationServices {
  db: Database;
  secrets: SecretBox;
  config: { DATA_DIR: string };
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

/** What a successful test proves and keeps: the credential holding its secret (or naming the account it tested). */
export interface TestedConnection {
  credentialId: string;
  /** Shown to the user ("Connection successful"). */
  message: string;
}

/** The texts of the transform wizard's setup steps for a warehouse destination (backend/transforms/catalogue.ts). */
export interface TransformSetup {
  /** How the read step names the warehouse ("BigQuery", "the local warehouse"). */
  label: string;
  /** The input naming where result tables go (BigQuery's dataset, Snowflake's schema); none: next to the synced tables. */
  resultsLocation?(destination: WarehouseTarget): RequirementInput | null;
  /** The "review read permissions" step's description, instructions and SQL. */
  readGrants(destination: WarehouseTarget): Pick<SetupStep, "description" | "instructions" | "sql">;
  /** The "grant write access for results" step's description, instructions and SQL. */
  writeGrants(destination: WarehouseTarget): Pick<SetupStep, "description" | "instructions" | "sql">;
}

/** A destination as the transform wizard describes it (no secrets; the service account when it has one). */
export interface WarehouseTarget {
  id: string;
  name: string;
  integration_name: string;
  category: string;
  config: Record<string, unknown>;
  service_account_email?: string | null;
}

/** What a sync wrote to a destination: the plug-in says where that landed (the run details page). */
export interface LandedData {
  /** The folders its files went under: the first two levels of their paths ("zoom/<source id>/"). */
  folders: string[];
  /** The tables its rows went to, as the sync names them ("meetings"). */
  tables: string[];
}

/** A list for a location: "a, b and c". */
export const listed = (items: readonly string[]) => (items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

export interface DestinationPlugin<Settings extends Record<string, unknown> = Record<string, unknown>> {
  manifest: DestinationManifest;
  /** Turned off by the operator (ALLOW_LOCAL_DESTINATION=false): not offered, and a create is refused with this sentence. */
  hidden?(): string | null;
  /**
   * Why it cannot be used on this server yet (the platform's credentials for it are missing or broken), else null:
   * `reason` is what a user reads (the type is offered disabled with it, and its calls are refused with it), `detail`
   * tells the operator what to set (logged when the backend starts).
   */
  unavailable?(): { reason: string; detail: string } | null;
  /** The /externalauth/<path>/… names it answers (default: [manifest.name]); Cloud Storage also answers "gcs". */
  authPaths?: readonly string[];
  /** A body sent to one of its paths may mean a sibling plug-in: the name of the plug-in it means (default: this one). */
  pathVariant?(body: { category?: string }): string;
  /** The values a connection test proves; create and update must present a token over the same (validation-token.ts). */
  boundValues(settings: Partial<Settings>): Record<string, string>;
  /** POST /externalauth/<name>/get_instructions: what to grant, with the statements to run. */
  instructions?(settings: Partial<Settings>, call: DestinationCall): Promise<IntegrationInstructions> | IntegrationInstructions;
  /** POST /externalauth/<name>/service_account: the platform account the user grants access to (Google). */
  serviceAccount?(call: DestinationCall): Promise<ServiceAccountInfo>;
  /** POST /externalauth/<name>/test_connection: checks access; throws ConnectionTestError for what the user can fix. */
  test?(settings: Settings, call: DestinationCall, input: { credentialId?: string }): Promise<TestedConnection>;
  /** The non-secret config stored on a new destination from its (tested) settings. */
  config(
    settings: Settings,
    call: DestinationCall & { destinationId: string; credential: CredentialRow | null },
  ): Promise<Record<string, unknown>> | Record<string, unknown>;
  /**
   * PUT /destinations/update/<id> beyond name and description: the new config, or the existing one when nothing that a
   * test proves changed. `retest(values)` answers the credential of a test over `values` (400 "reauthenticate" if none).
   */
  update?(
    destination: PluginDestination,
    body: Record<string, unknown>,
    retest: (values: Partial<Settings> & { credential_id?: string; validation_token?: string }) => Promise<CredentialRow>,
  ): Promise<{ config: Record<string, unknown>; credentialId: string | null }>;
  /**
   * Where a sync's files and rows landed, in words a person can look up: a folder, `gs://bucket/prefix`, BigQuery's
   * `project.dataset` tables… (the run details page). Absent: the tables, by name.
   */
  location?(destination: PluginDestination, landed: LandedData): string;
  /** The writer a sync writes through. `bulk`: a large load whose caller flushes at the end. */
  writer(destination: PluginDestination, call: DestinationCall, options?: { bulk?: boolean }): Promise<DestinationWriter>;
  /** Where transforms read a connector's rows and write their results (plug-ins whose manifest says `warehouse`). */
  warehouse?(destination: PluginDestination, call: DestinationCall): Warehouse;
  /** The transform wizard's setup texts for this warehouse (a generic text when absent). */
  transformSetup?: TransformSetup;
  /** A warehouse on this very server (the local DuckDB): transforms prefer a connector's other warehouse to it. */
  embedded?: boolean;
}
