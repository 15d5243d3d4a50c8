import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { startBackend, type RunningBackend } from "../../backend/server.js";
import { createLogger } from "../../backend/lib/log.js";
import { connectDatabase, type DatabaseHandle } from "../../backend/db/client.js";
import { sources } from "../../backend/db/schema.js";
import { randomToken, SecretBox, sha256 } from "../../backend/lib/crypto.js";
import { readRecords } from "../../backend/integrations/sources/index.js";
import { LocalWriter, resolveLocalRoot } from "../../backend/integrations/destinations/local/index.js";
import { SESSION_COOKIE } from "../../contract/auth.js";
import { cloneTemplateDatabase } from "./backend.js";

/**
 * Reading real sources against the provider fakes (tests/fakes/): a backend on its own database with one signed-in
 * user, the calls that create sources through the real API flows (OAuth, admin consent, delegation), the reader and
 * the sync engine run with the backend's own secret key, and a local destination's warehouse to read back.
 */
export interface ReadingBackend {
  url: string;
  pool: pg.Pool;
  handle: DatabaseHandle;
  secrets: SecretBox;
  dataDir: string;
  cookie: string;
  /** The sync engine's services, as a worker has them. */
  services(): { db: DatabaseHandle["db"]; secrets: SecretBox; config: { DATA_DIR: string } };
  /** A JSON call to the backend as the signed-in user. */
  call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Creates a source through POST /sources/create; answers its id. */
  createSource(body: Record<string, unknown>): Promise<string>;
  sourceRow(id: string): Promise<typeof sources.$inferSelect>;
  /** Every record readRecords gives for the window. */
  read(sourceId: string, window: { from: Date; to: Date }, options?: { meetingsPerDay?: number }): Promise<unknown[]>;
  /** A connector from the source to a new local destination (no first sync); answers its id and the destination's folder. */
  localConnector(sourceId: string, platform: string, options: { lookbackDays: number; frequency?: string }): Promise<{ connectorId: string; destinationId: string; root: string }>;
  stop(): Promise<void>;
}

/** Plays the browser on a provider's consent page: posts its hidden fields with the given decision; answers the redirect. */
export async function consentPage(authUrl: string, action: string, decision: string): Promise<URL> {
  const html = await (await fetch(authUrl)).text();
  const form = new URLSearchParams();
  for (const [, field, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(field!, value!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))));
  form.set("decision", decision);
  const back = await fetch(new URL(action, authUrl), { method: "POST", body: form, redirect: "manual" });
  return new URL(back.headers.get("location")!);
}

/** Runs a query on a local destination's warehouse. */
export async function warehouse<T>(root: string, sql: string): Promise<T[]> {
  const writer = new LocalWriter(root);
  try {
    return (await writer.query(sql)) as T[];
  } finally {
    await writer.close();
  }
}

export async function startReadingBackend(appUrl: string): Promise<ReadingBackend> {
  const databaseUrl = await cloneTemplateDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-reading-"));
  const key = randomBytes(32).toString("base64url");
  const backend: RunningBackend = await startBackend({
    role: "api",
    log: createLogger("silent"),
    env: { NODE_ENV: "test", DATABASE_URL: databaseUrl, TRIBUTARY_SECRET_KEY: key, BACKEND_PORT: "0", LOCAL_IDP_PORT: "0", APP_URL: appUrl, DATA_DIR: dataDir },
  });
  const url = `http://127.0.0.1:${backend.port}`;
  const secrets = new SecretBox(key);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const handle = connectDatabase(databaseUrl, 2);
  const { rows } = await pool.query<{ id: string }>("INSERT INTO users (issuer, subject, email, name) VALUES ('test', 'reader', 'reader@example.com', 'Reader') RETURNING id");
  const token = randomToken();
  await pool.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", [sha256(token), rows[0]!.id]);
  const cookie = `${SESSION_COOKIE}=${token}`;

  const call: ReadingBackend["call"] = async (method, route, body) => {
    const response = await fetch(`${url}${route}`, { method, headers: { cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  const sourceRow: ReadingBackend["sourceRow"] = async (id) => {
    const [row] = await handle.db.select().from(sources).where(eq(sources.id, id));
    return row!;
  };
  return {
    url,
    pool,
    handle,
    secrets,
    dataDir,
    cookie,
    services: () => ({ db: handle.db, secrets, config: { DATA_DIR: dataDir } }),
    call,
    async createSource(body) {
      const created = await call("POST", "/sources/create", body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    },
    sourceRow,
    async read(sourceId, window, options) {
      const out: unknown[] = [];
      for await (const record of readRecords({ db: handle.db, secrets }, await sourceRow(sourceId), window, options)) out.push(record);
      return out;
    },
    async localConnector(sourceId, platform, options) {
      const suffix = randomBytes(3).toString("hex");
      const destination = await call("POST", "/destinations/create", { name: `Disk for ${platform} ${suffix}`, integration_name: "local" });
      expect(destination.status, JSON.stringify(destination.body)).toBe(201);
      const connector = await call("POST", "/connectors/create", {
        first_sync: false,
        name: `Sync ${platform} ${suffix}`,
        frequency: options.frequency ?? "daily",
        source_id: sourceId,
        platform,
        destination_ids: [destination.body.destination.id],
        lookback_days: options.lookbackDays,
      });
      expect(connector.status, JSON.stringify(connector.body)).toBe(201);
      return { connectorId: connector.body.id, destinationId: destination.body.destination.id, root: resolveLocalRoot(dataDir, destination.body.destination.config.folder as string) };
    },
    async stop() {
      await pool.end();
      await handle.close();
      await backend.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
