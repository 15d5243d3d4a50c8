import { fileURLToPath } from "node:url";
import { FakeGcs } from "./gcs.js";
import { FakeBigQuery } from "./bigquery.js";
import { FakeSnowflake } from "./snowflake.js";

/**
 * The destination fakes (Cloud Storage, BigQuery, Snowflake) seeded for the
 * end-to-end tests, in one process. Import startDestinationFakes() from a
 * global setup, or run this file (`tsx tests/fakes/google-destination-fakes.ts`):
 * it listens on E2E_GCS_PORT / E2E_BIGQUERY_PORT / E2E_SNOWFLAKE_PORT
 * (4110/4111/4112) and, with FAKES_IDLE_EXIT_MS, exits after that long without
 * a request. The backend then needs GCS_API_ENDPOINT, BIGQUERY_API_ENDPOINT and
 * SNOWFLAKE_HOST_OVERRIDE pointing at them, and a GOOGLE_SERVICE_ACCOUNT_KEY.
 */
export const E2E_SEED = {
  bucket: "e2e-bucket",
  project: "demo-project",
  datasets: ["analytics", "archive"],
  snowflake: { user: "LOADER", password: `pa'ss"w0rd`, warehouse: "LOAD_WH", database: "RAW", schema: "RAW.MEETINGS", stage: "RAW.MEETINGS.LANDING" },
} as const;

export const DEFAULT_FAKE_PORTS = { gcs: 4110, bigquery: 4111, snowflake: 4112 } as const;

export async function startDestinationFakes(ports: { gcs: number; bigquery: number; snowflake: number } = DEFAULT_FAKE_PORTS) {
  const gcs = new FakeGcs().createBucket(E2E_SEED.bucket);
  const bigquery = new FakeBigQuery();
  for (const dataset of E2E_SEED.datasets) bigquery.createDataset(E2E_SEED.project, dataset);
  const snowflake = new FakeSnowflake();
  const s = E2E_SEED.snowflake;
  snowflake.addUser(s.user, { password: s.password, warehouses: [s.warehouse], databases: [s.database], schemas: [s.schema], createTableIn: [s.schema], stages: [s.stage] });
  const started: { stop(): Promise<void> }[] = [];
  try {
    await gcs.start(ports.gcs);
    started.push(gcs);
    await bigquery.start(ports.bigquery);
    started.push(bigquery);
    await snowflake.start(ports.snowflake);
    started.push(snowflake);
  } catch (error) {
    await Promise.all(started.map((f) => f.stop()));
    throw error;
  }
  return {
    gcs,
    bigquery,
    snowflake,
    requestCount: () => gcs.requests.length + bigquery.requests.length + snowflake.requests.length,
    stop: () => Promise.all(started.map((f) => f.stop())).then(() => undefined),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const fakes = await startDestinationFakes({
    gcs: port("E2E_GCS_PORT", DEFAULT_FAKE_PORTS.gcs),
    bigquery: port("E2E_BIGQUERY_PORT", DEFAULT_FAKE_PORTS.bigquery),
    snowflake: port("E2E_SNOWFLAKE_PORT", DEFAULT_FAKE_PORTS.snowflake),
  });
  console.log(`destination fakes: gcs ${fakes.gcs.url}, bigquery ${fakes.bigquery.url}, snowflake ${fakes.snowflake.url}`);
  const idle = Number(process.env.FAKES_IDLE_EXIT_MS ?? 0);
  const stop = () => void fakes.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  if (idle > 0) {
    let seen = -1;
    let since = Date.now();
    setInterval(() => {
      const count = fakes.requestCount();
      if (count !== seen) {
        seen = count;
        since = Date.now();
      } else if (Date.now() - since > idle) stop();
    }, 1000);
  }
}
