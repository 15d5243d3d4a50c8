import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { PgBoss } from "pg-boss";
import { loadConfig, productionChecks, usesLocalIdentityProvider, type Config } from "./config.js";
import { connectDatabase } from "./db/client.js";
import { startChangeFeed } from "./db/changes.js";
import { applyMigrations } from "./db/migrate.js";
import { createLogger, type Logger } from "./lib/log.js";
import { createApi } from "./http/app.js";
import { IdentityExchange } from "./auth/identity.js";
import { startLocalIdp, type LocalIdp } from "./auth/local-idp.js";
import { startJobs, startSweeps } from "./jobs/boss.js";
import { pgBossQueue, type JobQueue } from "./jobs/queue.js";
import { backendJobs } from "./jobs/index.js";
import { heartbeatSettings } from "./runs/heartbeat.js";
import { LOCAL_IDP_CLIENT } from "../contract/auth.js";
import { SecretBox } from "./lib/crypto.js";
import { createAlerts } from "./alerts/notifier.js";
import { DESTINATION_PLUGINS } from "./integrations/destinations/registry.js";

export type Role = "api" | "worker" | "all";

export interface RunningBackend {
  port: number;
  localIdpIssuer?: string;
  stop(): Promise<void>;
}

/** Starts the HTTP API, the workers, or both, against one Postgres. */
export async function startBackend(options: { role: Role; env?: NodeJS.ProcessEnv; log?: Logger }): Promise<RunningBackend> {
  const config: Config = loadConfig(options.env);
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

  const secrets = new SecretBox(config.TRIBUTARY_SECRET_KEY);
  // Run outcomes become alerts in the background; on stop, the ones being sent get a few seconds to finish.
  const alerts = createAlerts({ db: database.db, secrets, log, config });
  stops.unshift(() => alerts.drain(5_000));
  let boss: PgBoss | undefined;
  let idp: LocalIdp | undefined;
  let server: ServerType | undefined;
  let port = 0;
  try {
    // One job queue over the pg-boss client started just below: the schedulers' and the API's.
    let queue: JobQueue | undefined;
    const jobs = backendJobs({ db: database.db, secrets, config }, () => (queue ??= pgBossQueue(boss!)), alerts.onOutcome);
    boss = await startJobs({ databaseUrl: config.DATABASE_URL, log, jobs, work: options.role !== "api", keepEndedJobsDays: config.JOB_HISTORY_DAYS });
    queue ??= pgBossQueue(boss);
    stops.unshift(() => boss!.stop({ graceful: true, timeout: 10_000 }));
    if (options.role !== "api") stops.unshift(startSweeps(jobs, log, heartbeatSettings().sweepSeconds));

    if (options.role !== "worker") {
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
      const api = createApi({ db: database.db, log, config, identity, secrets, queue, changes });
      await new Promise<void>((resolve, reject) => {
        server = serve({ fetch: api.fetch, port: config.BACKEND_PORT, hostname: config.BACKEND_HOST }, (info) => {
          port = info.port;
          resolve();
        });
        server.once("error", reject);
      });
      port = (server!.address() as AddressInfo).port;
      stops.unshift(() => new Promise<void>((resolve) => server!.close(() => resolve())));
    }
  } catch (error) {
    for (const stop of stops) await stop().catch(() => {});
    throw error;
  }
  log.info({ role: options.role, port: port || undefined }, "backend ready");
  return {
    port,
    localIdpIssuer: idp?.issuer,
    async stop() {
      for (const stop of stops) await stop().catch((error) => log.error({ err: error }, "error while stopping"));
    },
  };
}
