import { isSourceIntegration, type SourceIntegrationName } from "@contract/sources";
import { datagenServer } from "./datagen.server";
import { gmailServer } from "./gmail.server";
import type { SourceAuthModes, SourceSetupServer } from "./source-setup.server";
import { teamsServer } from "./teams.server";
import { zoomServer } from "./zoom.server";

export type { AuthFlow, AuthOption, SourceAuthModes, SourceSetupServer, VerifyAnswer } from "./source-setup.server";

/**
 * The one map from a source integration to what the create page's loader and action do for it
 * (app/integrations/<name>.server.ts). app/services/sources.server.ts asks it and names no source.
 */
export const SOURCE_SERVERS: Record<SourceIntegrationName, SourceSetupServer> = { zoom: zoomServer, teams: teamsServer, gmail: gmailServer, datagen: datagenServer };

const NONE: SourceSetupServer = { authFlow: () => ({ redirect: true }) };

export function sourceServer(name: string | null | undefined): SourceSetupServer {
  return isSourceIntegration(name) ? SOURCE_SERVERS[name] : NONE;
}

/** Whether a mode is one of the source's authentication modes. */
export function isAuthMode(authModes: SourceAuthModes | undefined, mode: string | null | undefined): mode is string {
  return !!mode && !!authModes?.modes.some((m) => m.mode === mode);
}

/** The setup fields any verification covers. */
export const VERIFIED_FIELDS: readonly string[] = Object.values(SOURCE_SERVERS).flatMap((s) => s.verifiedFields ?? []);
