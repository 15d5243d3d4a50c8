import { z } from "zod";
import type { DestinationContract } from "./settings.js";

/** A folder under the server's DATA_DIR and an embedded DuckDB warehouse: nothing to set up, nothing to test. */
export const localManifest = {
  kind: "destination",
  name: "local",
  label: "Local folder",
  category: "STORAGE",
  settings: z.object({}),
  fields: [],
  secretFields: [],
  needsConnectionTest: false,
  warehouse: true,
  accepts: { objects: true, rows: true },
} satisfies DestinationContract;
