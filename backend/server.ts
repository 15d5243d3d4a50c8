import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { PgBoss } from "pg-boss";
import { loadConfig, productionChecks, usesLocalIdentityProvider, type Config } from "./config.js";
import { connectDatabase } from "./db/client.js";
import { startChangeFeed } from "./db/changes.js";
import { applyMigrations } from "./db/migrate.js";
import { createLogger, type Logger } from "./lib/log.js";
import { createApi } from "./http/app.js";
import { createPublicApi } from "./api/app.js";
import type { Services } from "./services/deps.js";
import { IdentityExchange } from "./auth/identity.js";
import { startLocalIdp, type LocalIdp } from "./auth/local-idp.js";
import { startJobs, startPasses, startSweeps } from "./jobs/boss.js";
import { pgBossQueue, type JobQueue } from "./jobs/queue.js";
import { backendJobs } from "./jobs/index.js";
import { heartbeatSettings } from "./runs/heartbeat.js";
import { LOCAL_IDP_CLIENT } from "../contract/auth.js";
import { SecretBox } from "./lib/crypto.js";
import { createAlerts } from "./alerts/notifier.js";
import { DESTINATION_PLUGINS } from "./integrations/destinations/registry.js";
import { metricsSettings, startMetricsServer } from "./lib/metrics.js";

/**
 * What a backend process does (`backend/main.ts --role`): `api` answers HTTP; `worker` performs runs (the run queues)
 * and settles dead ones; `scheduler` works the timed jobs (the schedulers that queue due runs, the session and history
 * clean-ups) and settles dead runs too; `all` does everything (`npm start`). Any number of each may share a database.
 */
export type Role = "api" | "worker" | "scheduler" | "all";
export const ROLES: Role[] = ["api", "worker", "scheduler", "all"];

/** Whether a process of this role works this job: the timed jobs (a cron, or a pass every few seconds) are the scheduler's, the rest the worker's. */
export function worksJob(role: Role, job: { cron?: string; everySeconds?: number }): boolean {
  const timed = !!job.cron || !!job.everySeconds;
  if (role === "all") return true;
  if (role === "scheduler") return timed;
  if (role === "worker") return !timed;
  return false;
}
const servesHttp = (role: Role) => role === "api" || role === "all";

export interface RunningBackend {
  port: number;
  /** SHUTDOWN_GRACE_SECONDS, in milliseconds: what stop() gives running jobs and requests. */
  graceMs: number;
  localIdpIssuer?: string;
  /** The port /metrics is served on (METRICS_PORT; 0 there: the one picked); none when metrics are off. */
  metricsPort?: number;
  stop(): Promise<void>;
}

/** Starts the HTTP API, the workers, or both, against one Postgres. */
export async function startBackend(options: { role: Role; env?: NodeJS.ProcessEnv; log?: Logger }): Promise<RunningBackend> {
  const config: Config = loadConfig(options.env);
  // Read beside the config, from the same environment: a bad METRICS_PORT stops the start before anything is made.
  const metrics = metricsSettings(options.env ?? process.env);
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  for (const warning of productionChecks(config).warnings) log.warn(warning);
  if (!config.SMTP_URL) log.info("SMTP_URL is not set: e-mail alerts are unavailable (webhook alerts still work)");
  // What a user reads of a destination type that is not set up is a plain sentence; what to set is for the operator.
  for (const plugin of DESTINATION_PLUGINS) {
    const unavailable = plugin.unavailable?.();
    if (unavailable) log.warn({ destination: plugin.manifest.name, detail: unavailable.detail }, "destination type unavailable: it is offered disabled");
  }
  await applyMigrations(config.DATABASE_URL);
  const database = connectDatabase(config.DATABASE_URL);
  const stops: (() => Promise<void>)[] = [() => database.close()];
  const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
  let stopping = false;

  const secrets = new SecretBox(config.TRIBUTARY_SECRET_KEY);
  // Run outcomes become alerts in the background; on stop, the ones being sent get a few seconds to finish.
  const alerts = createAlerts({ db: database.db, secrets, log, config });
  stops.unshift(() => alerts.drain(5_000));
  let boss: PgBoss | undefined;
  let idp: LocalIdp | undefined;
  let server: ServerType | undefined;
  let port = 0;
  let metricsPort: number | undefined;
  try {
    // First, so that a process still starting (migrations done, queues being made) can already be watched.
    if (metrics) {
      const served = await startMetricsServer({ ...metrics, pool: database.pool, log });
      metricsPort = served.port;
      // Last to go (stops run in order, each new one first): the runs ending in the grace time are still counted.
      stops.splice(stops.length - 1, 0, () => served.close());
    }
    // One job queue over the pg-boss client started just below: the schedulers' and the API's.
    let queue: JobQueue | undefined;
    const jobs = backendJobs({ db: database.db, secrets, config }, () => (queue ??= pgBossQueue(boss!)), alerts.onOutcome);
    boss = await startJobs({
      databaseUrl: config.DATABASE_URL,
      log,
      jobs,
      works: (job) => worksJob(options.role, job),
      schedules: options.role === "scheduler" || options.role === "all",
      keepEndedJobsDays: config.JOB_HISTORY_DAYS,
    });
    queue ??= pgBossQueue(boss);
    // Running jobs get the grace time to finish; then pg-boss fails each one back to its queue (retried elsewhere).
    stops.unshift(() => boss!.stop({ graceful: true, timeout: graceMs }));
    if (options.role !== "api") stops.unshift(startSweeps(jobs, log, heartbeatSettings().sweepSeconds));
    stops.unshift(startPasses(jobs.filter((job) => worksJob(options.role, job)), log));

    if (servesHttp(options.role)) {
      const redirectUri = new URL("/auth/google/callback", config.APP_URL).toString();
      let identity: IdentityExchange;
      if (usesLocalIdentityProvider(config)) {
        idp = await startLocalIdp({
          port: config.LOCAL_IDP_PORT,
          appUrl: config.APP_URL,
          secretKey: config.TRIBUTARY_SECRET_KEY,
          nodeEnv: config.NODE_ENV,
          log,
        });
        stops.unshift(() => idp!.close());
        identity = new IdentityExchange({ issuer: idp.issuer, clientId: LOCAL_IDP_CLIENT.id, clientSecret: LOCAL_IDP_CLIENT.secret, redirectUri });
      } else {
        identity = new IdentityExchange({
          issuer: config.GOOGLE_ISSUER,
          clientId: config.GOOGLE_CLIENT_ID!,
          clientSecret: config.GOOGLE_CLIENT_SECRET ?? "",
          redirectUri,
        });
      }
      const changes = await startChangeFeed({ databaseUrl: config.DATABASE_URL, log });
      stops.unshift(() => changes.stop());
      const unready = async (): Promise<string | null> => {
        if (stopping) return "This process is shutting down.";
        if (!changes.listening()) return "This process has lost its database connection for change notices; it is reconnecting.";
        const answered = database.pool.query("SELECT 1").then(() => true, () => false);
        const late = new Promise<false>((resolve) => setTimeout(() => resolve(false), 2_000).unref());
        return (await Promise.race([answered, late])) ? null : "The database does not answer.";
      };
      const services: Services = { db: database.db, log, config, identity, secrets, queue, changes, unready };
      // The two edges side by side: the public API (/api/v1, bearer keys, never the session cookie) and its reference page
      // (/api/docs), with their own middleware and error shape; everything else is the session backend the web server calls.
      const sessionApi = createApi(services);
      const publicApi = createPublicApi(services);
      const fetch = (request: Request, env: unknown) => (/^\/api(\/|$)/.test(new URL(request.url).pathname) ? publicApi : sessionApi).fetch(request, env);
      await new Promise<void>((resolve, reject) => {
        server = serve({ fetch, port: config.BACKEND_PORT, hostname: config.BACKEND_HOST }, (info) => {
          port = info.port;
          resolve();
        });
        server.once("error", reject);
      });
      port = (server!.address() as AddressInfo).port;
      // No new connections; the requests in flight finish (idle keep-alive connections are closed at once), within
      // the grace time.
      stops.unshift(async () => {
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
        (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      });
    }
  } catch (error) {
    for (const stop of stops) await stop().catch(() => {});
    throw error;
  }
  log.info({ role: options.role, port: port || undefined, metricsPort }, "backend ready");
  return {
    port,
    graceMs,
    localIdpIssuer: idp?.issuer,
    metricsPort,
    async stop() {
      stopping = true;
      for (const stop of stops) await stop().catch((error) => log.error({ err: error }, "error while stopping"));
    },
  };
}
