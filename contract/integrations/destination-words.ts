import { inWords } from "../labels.js";
import { DESTINATION_MANIFESTS } from "./destinations.js";

/**
 * Texts that list the kinds of destination, from the registry. Apart from contract/labels.ts, which pages load in
 * the browser: the registry holds every destination's form schemas, and a page that needs these words gets them
 * from its loader.
 */

/** The destination kinds, from the registry; a variant of another kind (Snowflake Stage of Snowflake) counts once. */
function destinationKinds(only?: (m: (typeof DESTINATION_MANIFESTS)[number]) => boolean): string[] {
  const labels = DESTINATION_MANIFESTS.filter((m) => !only || only(m)).map((m) => m.label);
  return labels.filter((label) => !labels.some((other) => other !== label && label.startsWith(`${other} `)));
}

/** "Google Cloud Storage, BigQuery, Snowflake, Local folder or PostgreSQL": every kind of destination. */
export const destinationKindsInWords = (last: "or" | "and" = "or"): string => inWords(destinationKinds(), last);

/** The kinds of destination a transform reads from and writes to (those with a warehouse). */
export const warehouseKindsInWords = (): string => inWords(destinationKinds((m) => m.warehouse));
