import { z } from "zod";
import { defineSource, optionalText, SOURCE_MESSAGES } from "./source-kit.js";

/** The data generator: synthetic meetings in Zoom's or Gong's shape, with no account anywhere. */

export const DATAGEN_FORMATS = ["zoom", "gong"] as const;

/** Spec §3 "Source metadata by integration": the data generator. */
export const datagenMetadataSchema = z.object({
  company: optionalText(100, SOURCE_MESSAGES.companyTooLong, "Company name"),
  format: z.enum(DATAGEN_FORMATS, { errorMap: () => ({ message: SOURCE_MESSAGES.formatRequired }) }),
});

export const datagenManifest = defineSource({
  name: "datagen",
  label: "Data Generator",
  settings: datagenMetadataSchema,
  settingsRules: datagenMetadataSchema,
  needsVerification: false,
  platforms: DATAGEN_FORMATS,
  // A source produces the one style it was set up with.
  platformOf: (settings) => (DATAGEN_FORMATS as readonly unknown[]).includes(settings.format) ? (settings.format as string) : null,
  fileTypes: [".vtt", ".json", ".txt"],
});
