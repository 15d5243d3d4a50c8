import { isSourceIntegration, type SourceIntegrationName } from "@contract/sources";
import { datagenSetup } from "./datagen";
import { gmailSetup } from "./gmail";
import type { SourceSetup } from "./source-setup";
import { teamsSetup } from "./teams";
import { zoomSetup } from "./zoom";

export type { SetupLists, SourceSetup, SourceSetupProps } from "./source-setup";

/** The one map from a source integration to its part of the create form (app/integrations/<name>.tsx). */
export const SOURCE_SETUPS: Record<SourceIntegrationName, SourceSetup> = { zoom: zoomSetup, teams: teamsSetup, gmail: gmailSetup, datagen: datagenSetup };

export function sourceSetup(name: string | null | undefined): SourceSetup | null {
  return isSourceIntegration(name) ? SOURCE_SETUPS[name] : null;
}
