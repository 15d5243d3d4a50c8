import type { Database } from "../db/client.js";
import type { Logger } from "../lib/log.js";
import type { Config } from "../config.js";
import type { IdentityExchange } from "../auth/identity.js";
import type { SecretBox } from "../lib/crypto.js";
import type { JobQueue } from "../jobs/queue.js";
import type { ChangeFeed } from "../db/changes.js";

/** What a use case (backend/services) and the two HTTP edges work with: made once per process in backend/server.ts. */
export interface Services {
  db: Database;
  log: Logger;
  config: Config;
  identity: IdentityExchange;
  /** Seals secrets (tokens, passwords, keys) before they are stored; see backend/lib/crypto.ts. */
  secrets: SecretBox;
  /** The job queue runs are sent through (backend/jobs/queue.ts). */
  queue: JobQueue;
  /** Each user's data version, moved by every write to what their pages show (backend/db/changes.ts). */
  changes: ChangeFeed;
  /** Why this process should get no traffic now (stopping, no database), or null: ready (GET /readyz). */
  unready: () => Promise<string | null>;
}
