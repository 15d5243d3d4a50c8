import { stopServer } from "./server";

const state = globalThis as typeof globalThis & { __tributaryFakes?: () => Promise<void> };

/** Stops the e2e Tributary (SIGTERM, wait for a clean exit), removes its data folder, and stops the fakes. */
export default async function globalTeardown(): Promise<void> {
  await stopServer();
  await state.__tributaryFakes?.();
}
