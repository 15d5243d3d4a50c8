import type { Database } from "../../db/client.js";
import type { sources } from "../../db/schema.js";
import type { CredentialRow } from "../../db/sources.js";
import type { SecretBox } from "../../lib/crypto.js";
import type { SourceIntegration } from "../../../contract/integrations/sources.js";
import type { DestinationObject, Row } from "../destinations/writer.js";
import type { ReadTracker } from "./tracker.js";

/**
 * A source plug-in, Airbyte's check / read in spirit: its manifest (contract/integrations/<name>.ts), the setup
 * calls that authenticate and verify it (spec §7 /externalauth/<name>/<call>), what a verification covers, and
 * how it reads the records of a window. The HTTP routers and the sync engine find it in registry.ts.
 */

export interface ReaderServices {
  db: Database;
  secrets: SecretBox;
}

export type SourceRow = typeof sources.$inferSelect;

export interface ReadWindow {
  from: Date;
  to: Date;
}

export interface ReadOptions {
  /** The data generator's volume (bench, tests); others ignore it. */
  meetingsPerDay?: number;
  /** What earlier syncs landed, for an incremental reader (default: nothing, the whole window is read). */
  tracker?: ReadTracker;
}

/** What a provider's reader gets: the source, its credential (the owner's), and how to re-seal refreshed tokens. */
export interface ReaderContext {
  services: ReaderServices;
  source: SourceRow;
  credential: CredentialRow;
  window: ReadWindow;
  options: ReadOptions;
  /** What earlier syncs landed: an incremental reader skips what it lists that landed unchanged (tracker.ts). */
  tracker: ReadTracker;
  /** Seals and stores the credential's new secret (a refreshed token). */
  saveSecret(value: unknown): Promise<void>;
}

/**
 * Every record whose time (its streams' cursor: a meeting's start, an e-mail's sending) falls in [window.from,
 * window.to), one at a time, in the plug-in's own shape (a meeting with its transcript, an e-mail). A provider's reader
 * uses the source's credential (readRecords marks it "error" on a PermanentReadError and "active" after a complete
 * read); a source that needs none reads from its settings alone.
 */
export type SourceReader<R = unknown> =
  | {
      credential: true;
      /**
       * Issue 52: the reader asks its context's tracker before downloading what it lists, and so may be given a
       * window that starts at the last sync's end (less the late-arrival overlap) instead of the lookback window's.
       */
      incremental?: boolean;
      read(context: ReaderContext): AsyncIterable<R>;
    }
  | { credential: false; read(source: SourceRow, window: ReadWindow, options: ReadOptions): AsyncIterable<R> };

/** What a record is written as: rows of its streams and its files. The sync engine's batch takes them (backend/sync/batch.ts). */
export interface RecordSink {
  /** A row of one of the manifest's streams (named as there). */
  row(stream: string, row: Row): void;
  /** A file of the record, which lands with its stream: at a storage destination, under `<platform>/<source id>/`. */
  file(stream: string, object: DestinationObject): void;
}

/** Where a record comes from: the platform it is of (the connector's choice, else the source's) and the source's id. */
export interface EmitContext {
  platform: string;
  sourceId: string;
}

/** The last verification of a credential's setup (Teams verify-setup, Gmail test_connection), in its metadata. */
export interface Verification {
  status: "success" | "failed";
  scope: string;
  team_id?: string;
  admin_email?: string;
  group_ids?: string[];
  message: string;
  at: string;
}

/** What a setup call may use. The router has checked the session; errors become 4xx (see SetupError). */
export interface SetupContext {
  services: ReaderServices & { config: { APP_URL: string } };
  userId: string;
  /** Where the provider's OAuth redirect returns: <APP_URL>/sources/add/<name>. */
  redirectUri: string;
  /** The request's JSON body (415/400 when it is not JSON). */
  body(): Promise<unknown>;
  /** The caller's credential of this integration, or a 404. */
  ownedCredential(id: string): Promise<CredentialRow>;
  /** Runs a connection test within the caller's cap of tests at once (429 past it; 504 when the provider is silent). */
  connectionTest<T>(work: () => Promise<T>): Promise<T>;
}

/** One /externalauth/<name>/<call>: its method and what it answers (JSON). */
export interface SetupCall {
  method: "GET" | "POST";
  run(context: SetupContext): Promise<unknown>;
}

/** A setup problem the caller can fix: answered as `{ message }` with its status. */
export class SetupError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export interface SourcePlugin<R = unknown> {
  manifest: SourceIntegration;
  reader: SourceReader<R>;
  /**
   * A record as rows of the manifest's streams and its files. Every stream's rows carry its primary key's columns;
   * the engine writes them with no knowledge of what the record is (Airbyte's records of a stream, dlt's resources).
   */
  emit(record: R, at: EmitContext, out: RecordSink): void;
  /** The /externalauth calls, by the path's last segment ("auth_url", "callback", "verify-setup", …). */
  setup: Record<string, SetupCall>;
  /** Whether a successful verification covers these settings (when the manifest says it needs one). */
  verificationCovers?(verification: Verification, settings: Record<string, unknown>): boolean;
  /** A setting no two sources of one user may share (Teams: one source per team), and the message when taken. */
  uniqueSetting?: { key: string; message: string };
}
