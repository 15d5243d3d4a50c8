import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import pg from "pg";
import type snowflake from "snowflake-sdk";
import type { Destination } from "../../../contract/destinations.js";
import { bigQueryClient, platformServiceAccount } from "../../../backend/integrations/destinations/kit/google.js";
import type { FakeGcs } from "../../fakes/gcs.js";
import type { FakeBigQuery } from "../../fakes/bigquery.js";
import type { FakeSnowflake } from "../../fakes/snowflake.js";

/**
 * The destinations the conformance suite runs over, after dlt's destinations_configs(): each entry says how a
 * user creates one through the HTTP API and how a user reads back what a sync wrote there (querying the table,
 * listing the objects). Adding a destination to the suite is one entry here.
 */
export type Row = Record<string, unknown>;

export interface ConformanceContext {
  /** The signed-in user's calls to the backend's HTTP API. */
  call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }>;
  dataDir: string;
  /** The test Postgres server's admin URL (a destination on Postgres makes its own database there). */
  pgAdminUrl: string;
  fakes: { gcs: FakeGcs; bigquery: FakeBigQuery; snowflake: FakeSnowflake; snowflakeUrl: string };
}

export interface DestinationConfig {
  /** The destination type (integration_name). */
  name: string;
  /** Settings the backend needs for this destination in tests (e.g. allowing a loopback host), set before it starts. */
  backendEnv?: Record<string, string>;
  /** Grants what the destination needs at its provider (a fake), and creates it through the API as a user would. */
  create(ctx: ConformanceContext): Promise<Destination>;
  /** The table's rows as a user querying it sees them, column names lower-cased; [] when there is no such table. */
  rows(ctx: ConformanceContext, destination: Destination, table: string): Promise<Row[]>;
  /** The objects under `prefix`, path → body, as a user listing and reading the destination sees them. */
  objects(ctx: ConformanceContext, destination: Destination, prefix: string): Promise<Map<string, string>>;
  /** Set while the suite cannot write this destination's objects (why); its rows are still checked. */
  objectsPending?: string;
  /** What writers left behind that a user would see and that does not go away by itself (e.g. staging tables). */
  leftovers?(ctx: ConformanceContext, destination: Destination): Promise<string[]>;
}

const lower = (row: Row): Row => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));
const config = (d: Destination) => d.config as Record<string, string>;

async function created(ctx: ConformanceContext, body: Record<string, unknown>): Promise<Destination> {
  const response = await ctx.call("POST", "/destinations/create", { name: `Conformance ${body.integration_name as string}`, description: "", ...body });
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.destination as Destination;
}

/** A Google destination: the platform's service account, a connection test, then create with its token. */
async function google(ctx: ConformanceContext, integration: "storage" | "bigquery", fields: Record<string, string>): Promise<Destination> {
  const sa = await ctx.call("POST", `/externalauth/${integration}/service_account`, { integration_name: integration });
  const body = { integration_name: integration, credential_id: sa.body.credential_id, ...fields };
  const tested = await ctx.call("POST", `/externalauth/${integration}/test_connection`, body);
  if (tested.body.status !== "success") throw new Error(`test_connection answered ${tested.status}: ${JSON.stringify(tested.body)}`);
  return created(ctx, { ...body, validation_token: tested.body.validation_token });
}

/* ---- reading as a user ------------------------------------------------------------------------------ */

/** Files under a folder, relative path → text. */
function filesUnder(root: string, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(path.relative(root, full).split(path.sep).join("/"), readFileSync(full, "utf8"));
    }
  };
  walk(path.join(root, prefix));
  return out;
}

/** A DuckDB query on the local warehouse file, opened read-only as a user's own DuckDB would (writers closed). */
async function duckdb(file: string, sql: string): Promise<Row[]> {
  const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Row[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function bigquery(project: string, sql: string): Promise<Row[]> {
  const [rows] = await bigQueryClient(platformServiceAccount(), project).query({ query: sql, useLegacySql: false });
  return (rows as Row[]).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v && typeof v === "object" && "value" in v ? (v as { value: unknown }).value : v])));
}

/** A Snowflake query through the official SDK, signed in as the destination's user. */
async function snowflakeQuery(ctx: ConformanceContext, d: Destination, sql: string): Promise<Row[]> {
  const sdk = ((await import("snowflake-sdk")) as unknown as { default: typeof snowflake }).default;
  sdk.configure({ logLevel: "OFF" });
  const c = config(d);
  const connection = sdk.createConnection({ account: c.account!, accessUrl: ctx.fakes.snowflakeUrl, username: c.user!, password: SNOWFLAKE.password, database: c.database, schema: c.schema });
  await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
  try {
    return await new Promise<Row[]>((resolve, reject) =>
      connection.execute({ sqlText: sql, complete: (error, _s, rows) => (error ? reject(error) : resolve((rows ?? []) as Row[])) }),
    );
  } finally {
    await new Promise<void>((resolve) => connection.destroy(() => resolve()));
  }
}

const missingTable = (error: unknown) => /not found|does not exist/i.test(String((error as Error).message));

/** A query on one database of the tests' Postgres server, as its administrator. */
async function postgresQuery(ctx: ConformanceContext, database: string, sql: string): Promise<Row[]> {
  const url = new URL(ctx.pgAdminUrl);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** PostgreSQL: a database and login role of the suite's own on the tests' Postgres server (a loopback host, allowed by setting). */
function postgresConfig(): DestinationConfig {
  const name = `conformance_${randomBytes(4).toString("hex")}`;
  const password = `pa'ss"w0rd`;
  return {
    name: "postgres",
    backendEnv: { TRIBUTARY_ALLOW_PRIVATE_HOSTS: "true" },
    async create(ctx) {
      await postgresQuery(ctx, "postgres", `CREATE DATABASE ${name}`);
      await postgresQuery(ctx, "postgres", `CREATE ROLE ${name} LOGIN PASSWORD 'pa''ss"w0rd'`);
      await postgresQuery(ctx, "postgres", `GRANT CONNECT, CREATE ON DATABASE ${name} TO ${name}`);
      const fields = { host: "127.0.0.1", port: new URL(ctx.pgAdminUrl).port, database: name, schema: "conformance", user: name };
      const tested = await ctx.call("POST", "/externalauth/postgres/test_connection", { ...fields, password });
      if (tested.body.status !== "success") throw new Error(`test_connection answered ${tested.status}: ${JSON.stringify(tested.body)}`);
      return created(ctx, { integration_name: "postgres", ...fields, credential_id: tested.body.credential_id, validation_token: tested.body.validation_token });
    },
    async rows(ctx, d, table) {
      const rows = await postgresQuery(ctx, config(d).database!, `SELECT * FROM "${config(d).schema}"."${table}"`).catch((e) => (missingTable(e) ? [] : Promise.reject(e)));
      return rows.map(lower);
    },
    async objects(ctx, d, prefix) {
      const rows = await postgresQuery(ctx, config(d).database!, `SELECT path, body FROM "${config(d).schema}".tributary_objects`).catch((e) =>
        missingTable(e) ? [] : Promise.reject(e),
      );
      return new Map(rows.filter((r) => String(r.path).startsWith(prefix)).map((r) => [String(r.path), String(r.body)]));
    },
  };
}

/* ---- the destinations ------------------------------------------------------------------------------- */

export const PROJECT = "conformance-project";
export const SNOWFLAKE = { user: "CONFORMANCE", password: `pa'ss"w0rd`, warehouse: "LOAD_WH", database: "RAW" } as const;

function snowflakeConfig(name: "snowflake" | "snowflake_stage", schema: string): DestinationConfig {
  const stage = name === "snowflake_stage";
  return {
    name,
    async create(ctx) {
      ctx.fakes.snowflake.addUser(`${SNOWFLAKE.user}_${schema}`, {
        password: SNOWFLAKE.password,
        warehouses: [SNOWFLAKE.warehouse],
        databases: [SNOWFLAKE.database],
        schemas: [`RAW.${schema}`],
        createTableIn: [`RAW.${schema}`],
        stages: [`RAW.${schema}.LANDING`],
      });
      const fields = {
        category: stage ? "STORAGE" : "WAREHOUSE",
        account: "org-acct",
        user: `${SNOWFLAKE.user}_${schema}`,
        password: SNOWFLAKE.password,
        warehouse: SNOWFLAKE.warehouse,
        database: SNOWFLAKE.database,
        schema,
        ...(stage ? { stage_name: "LANDING" } : {}),
      };
      const tested = await ctx.call("POST", "/externalauth/snowflake/test_connection", fields);
      if (tested.body.status !== "success") throw new Error(`test_connection answered ${tested.status}: ${JSON.stringify(tested.body)}`);
      return created(ctx, { integration_name: name, ...fields, credential_id: tested.body.credential_id, validation_token: tested.body.validation_token });
    },
    async rows(ctx, d, table) {
      return (await snowflakeQuery(ctx, d, `SELECT * FROM RAW.${schema}.${table.toUpperCase()}`).catch((e) => (missingTable(e) ? [] : Promise.reject(e)))).map(lower);
    },
    async objects(ctx, d, prefix) {
      if (stage) {
        // Names as LIST shows them; bodies as a GET of each would give them (the fake's stage holds the uploaded files).
        const listed = await snowflakeQuery(ctx, d, `LIST @RAW.${schema}.LANDING/${prefix}`);
        const bodies = ctx.fakes.snowflake.stageFiles(`RAW.${schema}.LANDING`);
        return new Map(
          listed.map((r) => {
            const name = String(lower(r).name).replace(/^[^/]*\//, "");
            return [name, bodies.get(name)?.toString("utf8") ?? ""];
          }),
        );
      }
      const rows = await snowflakeQuery(ctx, d, `SELECT PATH, CONTENT FROM RAW.${schema}.OBJECTS`).catch((e) => (missingTable(e) ? [] : Promise.reject(e)));
      return new Map(rows.map(lower).filter((r) => String(r.path).startsWith(prefix)).map((r) => [String(r.path), String(r.content)]));
    },
  };
}

/** Every destination the suite runs over. */
export function destinationsConfigs(): DestinationConfig[] {
  return [
    {
      name: "local",
      create: (ctx) => created(ctx, { integration_name: "local" }),
      async rows(ctx, d, table) {
        const file = path.resolve(ctx.dataDir, config(d).folder!, "warehouse.duckdb");
        const known = await duckdb(file, `SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = '${table}'`);
        return Number(known[0]?.n) ? (await duckdb(file, `SELECT * FROM "${table}"`)).map(lower) : [];
      },
      objects: async (ctx, d, prefix) => filesUnder(path.resolve(ctx.dataDir, config(d).folder!, "files"), prefix),
    },
    {
      name: "storage",
      create(ctx) {
        ctx.fakes.gcs.createBucket("conformance-bucket");
        return google(ctx, "storage", { project_id: PROJECT, bucket_name: "conformance-bucket" });
      },
      async rows(ctx, d, table) {
        return ctx.fakes.gcs
          .objects(config(d).bucket_name!)
          .filter((o) => o.name.startsWith(`tables/${table}/`))
          .map((o) => lower(JSON.parse(o.data.toString("utf8")) as Row));
      },
      async objects(ctx, d, prefix) {
        return new Map(ctx.fakes.gcs.objects(config(d).bucket_name!).filter((o) => o.name.startsWith(prefix)).map((o) => [o.name, o.data.toString("utf8")]));
      },
    },
    {
      name: "bigquery",
      create(ctx) {
        ctx.fakes.bigquery.createDataset(PROJECT, "conformance");
        // A scheduled re-run comes hours later, long after streaming's best-effort de-duplication window.
        ctx.fakes.bigquery.dedupWindowMs = 0;
        return google(ctx, "bigquery", { project_id: PROJECT, dataset_name: "conformance" });
      },
      async rows(_ctx, d, table) {
        return (await bigquery(PROJECT, `SELECT * FROM \`${PROJECT}.${config(d).dataset_name}.${table}\``).catch((e) => (missingTable(e) ? [] : Promise.reject(e)))).map(lower);
      },
      async objects(_ctx, d, prefix) {
        const rows = await bigquery(PROJECT, `SELECT path, content FROM \`${PROJECT}.${config(d).dataset_name}.objects\``).catch((e) => (missingTable(e) ? [] : Promise.reject(e)));
        return new Map(rows.filter((r) => String(r.path).startsWith(prefix)).map((r) => [String(r.path), String(r.content)]));
      },
      async leftovers(ctx, d) {
        const day = 24 * 60 * 60_000 + 60_000;
        return ctx.fakes.bigquery
          .tables(PROJECT, config(d).dataset_name!)
          .filter((t) => t.name.startsWith("_") && !(t.expirationTime !== undefined && t.expirationTime - Date.now() <= day))
          .map((t) => t.name);
      },
    },
    snowflakeConfig("snowflake", "CONFORMANCE"),
    snowflakeConfig("snowflake_stage", "STAGED"),
    postgresConfig(),
  ];
}
