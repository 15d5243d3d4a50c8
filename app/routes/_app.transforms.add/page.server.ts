import { DEFAULT_FILE_TYPE, DEFAULT_TRANSFORM_FREQUENCY, TRANSFORM_FILE_TYPES, TRANSFORM_MESSAGES as M, type TransformConfig } from "@contract/transforms";
import { preferredFileType } from "@contract/transform-forms";
import { loadTransformConfig } from "~/services/transforms.server";

/** The first screen's values as typed (strings, possibly empty or wrong: the schema checks them). */
export interface Values {
  name: string;
  description: string;
  connector_id: string;
  frequency: string;
  file_type: string;
  workflow: string;
}

export interface AddPage {
  values: Values;
  connectors: TransformConfig["connectors"];
  fileTypes: string[];
  loadError: string | null;
}

const KEYS = ["name", "description", "connector_id", "frequency", "file_type", "workflow"] as const;

/** Values from a form or an address; a draft (the wizard's saved first screen) reads as its own values. */
export function readValues(source: URLSearchParams | FormData | { name: string; description: string; connector_id: string; frequency: string; file_type: string } | null): Values | null {
  if (!source) return null;
  if (source instanceof URLSearchParams || source instanceof FormData) {
    const text = (key: string) => {
      const value = source.get(key);
      return typeof value === "string" ? value : "";
    };
    return Object.fromEntries(KEYS.map((key) => [key, text(key)])) as unknown as Values;
  }
  return { name: source.name, description: source.description, connector_id: source.connector_id, frequency: source.frequency, file_type: source.file_type, workflow: "template" };
}

/**
 * The first screen's data: the connectors with the file types their data comes as, and the values to show. A
 * connector just chosen (`fromChoice`) brings a file type its data has when the one shown is not (issue 26).
 */
export async function loadPage(request: Request, values: Values | null, { fromChoice }: { fromChoice: boolean }): Promise<AddPage> {
  const config = await loadTransformConfig(request);
  const connectors = config.ok ? config.data.connectors : [];
  const shown: Values = values ?? { name: "", description: "", connector_id: "", frequency: DEFAULT_TRANSFORM_FREQUENCY, file_type: DEFAULT_FILE_TYPE, workflow: "" };
  const available = connectors.find((c) => c.id === shown.connector_id)?.file_types ?? [];
  if (fromChoice && available.length && !available.includes(shown.file_type)) shown.file_type = preferredFileType(available);
  return {
    values: shown,
    connectors,
    fileTypes: config.ok && config.data.file_types.length ? config.data.file_types : [...TRANSFORM_FILE_TYPES],
    loadError: config.ok ? null : M.loadFailed,
  };
}
