import { startFakes } from "./fakes";
import { startServer } from "./server";

const state = globalThis as typeof globalThis & { __tributaryFakes?: () => Promise<void> };

/** Starts the third-party fakes, then the built Tributary (embedded Postgres, backend, Remix server) on the e2e ports. */
export default async function globalSetup(): Promise<void> {
  state.__tributaryFakes = await startFakes();
  await startServer();
}
