import { destinationManifest as manifestOf, type DestinationContract } from "@contract/integrations/destinations";
import { googleSetup } from "./google";
import { localSetup } from "./local";
import type { DestinationSetup } from "./types";

export type { DestinationSetup, ServiceAccountView, SetupProps } from "./types";

/**
 * The one map from a destination to what the app adds to its manifest. A plug-in whose manifest fields are
 * enough (Snowflake, PostgreSQL) needs no line here: the generic sub-form draws them, with instructions and a test
 * when it needs one.
 */
const SETUPS: Partial<Record<string, DestinationSetup>> = {
  storage: googleSetup,
  bigquery: googleSetup,
  local: localSetup,
};

const NONE: DestinationSetup = {};

export function destinationSetup(name: string | null | undefined): DestinationSetup {
  return (name && SETUPS[name]) || NONE;
}

export function destinationManifest(name: string | null | undefined): DestinationContract | undefined {
  return manifestOf(name ?? undefined);
}
