import { isSourceIntegration } from "@contract/sources";
import type { SourceAuthModes, SourceSetupServer } from "./source-setup.server";

export type { AuthFlow, AuthOption, SourceAuthModes, SourceSetupServer, VerifyAnswer } from "./source-setup.server";

/**
 * What the create page's loader and action do for each source: the default export of each
 * app/integrations/sources/<name>/setup.server.ts, by its folder's name. app/services/sources.server.ts asks it and
 * names no source; a new source's folder is found here with no line to add.
 */
const modules = import.meta.glob<SourceSetupServer>("./sources/*/setup.server.ts", { eager: true, import: "default" });
export const SOURCE_SERVERS: Readonly<Record<string, SourceSetupServer>> = Object.fromEntries(Object.entries(modules).map(([path, server]) => [path.split("/")[2], server]));

const NONE: SourceSetupServer = { authFlow: () => ({ redirect: true }) };

export function sourceServer(name: string | null | undefined): SourceSetupServer {
  return (isSourceIntegration(name) && SOURCE_SERVERS[name]) || NONE;
}

/** Whether a mode is one of the source's authentication modes. */
export function isAuthMode(authModes: SourceAuthModes | undefined, mode: string | null | undefined): mode is string {
  return !!mode && !!authModes?.modes.some((m) => m.mode === mode);
}

/** The setup fields any verification covers. */
export const VERIFIED_FIELDS: readonly string[] = Object.values(SOURCE_SERVERS).flatMap((s) => s.verifiedFields ?? []);
