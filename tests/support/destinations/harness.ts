import { generateKeyPairSync } from "node:crypto";
import { inject } from "vitest";
import { SecretBox } from "../../../backend/lib/crypto.js";
import { findDestination, type DestinationRecord } from "../../../backend/db/destinations.js";
import { destinationPlugin } from "../../../backend/integrations/destinations/registry.js";
import type { WarehouseServices } from "../../../backend/transforms/warehouse.js";
import type { Destination } from "../../../contract/destinations.js";
import { FakeBigQuery } from "../../fakes/bigquery.js";
import { FakeGcs } from "../../fakes/gcs.js";
import { FakeSnowflake } from "../../fakes/snowflake.js";
import { api, createUserSession, startTestBackend, type TestBackend } from "../backend.js";
import type { ConformanceContext, DestinationConfig } from "./configs.js";

/**
 * What a backend test over every destination of ./configs.ts starts from: the fakes (GCS, BigQuery, Snowflake)
 * listening and the backend pointed at them, a backend (role "all": it performs runs too) with each destination's
 * settings, a signed-in user, and the services a plug-in is called with as the routers call it.
 */
export interface DestinationsHarness {
  t: TestBackend;
  ctx: ConformanceContext;
  cookie: string;
  ownerId: string;
  services: WarehouseServices;
  /** A destination made through the API (`config.create`), as the plug-ins get it: its stored record. */
  stored(destination: Destination): Promise<DestinationRecord>;
  stop(): Promise<void>;
}

const ENDPOINTS = ["GCS_API_ENDPOINT", "BIGQUERY_API_ENDPOINT", "SNOWFLAKE_HOST_OVERRIDE", "GOOGLE_SERVICE_ACCOUNT_KEY", "GOOGLE_SERVICE_ACCOUNT_KEY_FILE"];

/** The destinations of ./configs.ts whose plug-in gives a warehouse (transforms read and write there). */
export const hasWarehouse = (config: DestinationConfig) => Boolean(destinationPlugin(config.name)?.warehouse);

/**
 * `configs`: the destinations the test runs over (its describe.each's list, made once when the file is collected: the
 * PostgreSQL one names a database of its own); their settings are the backend's.
 */
export async function startDestinationsHarness(options: { email: string; role?: "api" | "all"; configs: DestinationConfig[] }): Promise<DestinationsHarness> {
  const fakes = { gcs: new FakeGcs(), bigquery: new FakeBigQuery(), snowflake: new FakeSnowflake(), snowflakeUrl: "" };
  await Promise.all([fakes.gcs.start(), fakes.bigquery.start(), fakes.snowflake.start()]);
  fakes.snowflakeUrl = fakes.snowflake.url;
  const backendEnv = Object.assign({}, ...options.configs.map((c) => c.backendEnv ?? {})) as Record<string, string>;
  const saved = Object.fromEntries([...ENDPOINTS, ...Object.keys(backendEnv)].map((name) => [name, process.env[name]]));
  const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" });
  // The backend runs in this process: what its plug-ins read from the environment (not from its config) goes there.
  Object.assign(process.env, backendEnv, {
    GCS_API_ENDPOINT: fakes.gcs.url,
    BIGQUERY_API_ENDPOINT: fakes.bigquery.url,
    SNOWFLAKE_HOST_OVERRIDE: fakes.snowflake.url,
    GOOGLE_SERVICE_ACCOUNT_KEY: JSON.stringify({ type: "service_account", client_email: "tributary-platform@tributary-test.iam.gserviceaccount.com", private_key: key }),
  });
  delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE;
  const t = await startTestBackend({ role: options.role ?? "api", env: { ...backendEnv, NODE_ENV: "test" } });
  const session = await createUserSession(t, options.email);
  const services: WarehouseServices = { db: t.handle.db, secrets: new SecretBox(t.secretKey), config: { DATA_DIR: t.dataDir } };
  const ctx: ConformanceContext = {
    dataDir: t.dataDir,
    pgAdminUrl: inject("pgAdminUrl"),
    fakes,
    call: (method, route, body) => api(t, session.cookie, method, route, body),
  };
  return {
    t,
    ctx,
    cookie: session.cookie,
    ownerId: session.userId,
    services,
    async stored(destination) {
      const record = await findDestination(services.db, session.userId, destination.id);
      if (!record) throw new Error(`destination ${destination.id} is not the user's`);
      return record;
    },
    async stop() {
      await t.stop();
      await Promise.all([fakes.gcs.stop(), fakes.bigquery.stop(), fakes.snowflake.stop()]);
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
