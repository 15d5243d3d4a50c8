import { ConnectionTestError } from "../plugin.js";

/** What every destination's connection test shares: a failed check the user can read and fix. */

/** A failed check: `message` says what is missing, for "Connection test failed: …". */
export class AccessCheckError extends Error {
  constructor(
    message: string,
    readonly unreachable = false,
    /** The service did not answer within the connection test's timeout. */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/** An access check's failure as the user reads it: "Connection test failed: …" (504 too slow, 502 unreachable). */
export function accessFailure(error: unknown): never {
  if (error instanceof AccessCheckError) throw new ConnectionTestError(error.timedOut ? 504 : error.unreachable ? 502 : 422, `Connection test failed: ${error.message}`, { cause: error });
  throw error;
}
