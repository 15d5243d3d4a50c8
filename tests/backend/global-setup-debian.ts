import type { TestProject } from "vitest/node";
import { startDebianPostgres } from "../support/debian-postgres.js";
import { provideTemplate } from "./global-setup.js";

/**
 * The same as global-setup.ts on a server of Debian's `postgresql` package (tests/support/debian-postgres.ts) instead
 * of the embedded one: one cluster for all the files of vitest.config.ts's DEBIAN_FILES, started only when one of
 * them runs. Its files clone their databases from its template through the same harness (tests/support/backend.ts).
 */
export default async function setup(project: TestProject) {
  const server = await startDebianPostgres();
  try {
    await provideTemplate(project, server.url("postgres"));
  } catch (error) {
    await server.stop();
    throw error;
  }
  return () => server.stop();
}
