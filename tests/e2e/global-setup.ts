import { startServer } from "./server";

/** Starts the built Tributary (embedded Postgres, backend, Remix server) on the e2e ports. */
export default async function globalSetup(): Promise<void> {
  await startServer();
}
