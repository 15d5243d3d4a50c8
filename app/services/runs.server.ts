import { z } from "zod";
import { callBackend, type Outcome } from "./backend.server";

const versionSchema = z.object({ version: z.string() }).transform((o) => o.version);

/** The signed-in user's data version: it moves on every write of their runs (the run event stream polls it). */
export function loadRunsVersion(request: Request): Promise<Outcome<string>> {
  return callBackend(request, "/runs/version", { schema: versionSchema }, "Failed to check the runs");
}
