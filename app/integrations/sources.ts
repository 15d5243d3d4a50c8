import { isSourceIntegration } from "@contract/sources";
import type { SourceSetup } from "./source-setup";

export type { SetupLists, SourceSetup, SourceSetupProps } from "./source-setup";

/**
 * Every source's part of the create form: the default export of each app/integrations/sources/<name>/setup.tsx, by its
 * folder's name (the manifest's name). A new source's folder is found here with no line to add;
 * tests/unit/source-manifests.test.ts checks that every manifest has one.
 */
const modules = import.meta.glob<SourceSetup>("./sources/*/setup.tsx", { eager: true, import: "default" });
export const SOURCE_SETUPS: Readonly<Record<string, SourceSetup>> = Object.fromEntries(Object.entries(modules).map(([path, setup]) => [path.split("/")[2], setup]));

export function sourceSetup(name: string | null | undefined): SourceSetup | null {
  return isSourceIntegration(name) ? (SOURCE_SETUPS[name] ?? null) : null;
}
