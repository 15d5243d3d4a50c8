import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../backend/db/embedded.js";
import { applyMigrations } from "../../backend/db/migrate.js";
import { freePort } from "../support/ports.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the test Postgres server's maintenance database; see tests/support/backend.ts. */
    pgAdminUrl: string;
  }
}

export const TEMPLATE_DB = "tributary_template";

/** Makes the migrated template database on the server whose maintenance database is `adminUrl`, and provides that URL. */
export async function provideTemplate(project: TestProject, adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  await applyMigrations(adminUrl.replace(/\/postgres$/, `/${TEMPLATE_DB}`));
  project.provide("pgAdminUrl", adminUrl);
}

/**
 * One real Postgres for the whole run (embedded, in a temporary folder), with a
 * migrated template database; each test file clones its own database from it.
 * The files of vitest.config.ts's DEBIAN_FILES get Debian's server instead (global-setup-debian.ts).
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tributary-test-pg-"));
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
  await provideTemplate(project, server.urlFor("postgres"));
  return async () => {
    await server.stop();
  };
}
