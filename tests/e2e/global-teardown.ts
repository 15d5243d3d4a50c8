import { stopServer } from "./server";

/** Stops the e2e Tributary (SIGTERM, wait for a clean exit) and removes its data folder. */
export default async function globalTeardown(): Promise<void> {
  await stopServer();
}
