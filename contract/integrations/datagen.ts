import { z } from "zod";
import { meetingStreams } from "./streams.js";
import { defineSource, optionalText, SOURCE_MESSAGES } from "./source-kit.js";
import { call, callbackResponseSchema } from "./setup-calls.js";

/** The data generator: synthetic meetings in Zoom's or Gong's shape, with no account anywhere. */

export const DATAGEN_FORMATS = ["zoom", "gong"] as const;

/** The most meetings a day the generator makes: a 366-day backfill at this volume is a sync of hours on a slow link. */
export const DATAGEN_MAX_MEETINGS_PER_DAY = 1000;
export const DATAGEN_MEETINGS_PER_DAY_MESSAGE = `Meetings per day must be a whole number from 1 to ${DATAGEN_MAX_MEETINGS_PER_DAY.toLocaleString("en-US")}.`;

/**
 * The generator's optional volume (issue 39): meetings per day, so that a sync can be as long as a rehearsal needs.
 * Empty: the default (6 a day). A form sends text; the API may send a number.
 */
const meetingsPerDay = z.preprocess(
  (v) => (v === "" || v === null ? undefined : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ invalid_type_error: DATAGEN_MEETINGS_PER_DAY_MESSAGE })
    .int(DATAGEN_MEETINGS_PER_DAY_MESSAGE)
    .min(1, DATAGEN_MEETINGS_PER_DAY_MESSAGE)
    .max(DATAGEN_MAX_MEETINGS_PER_DAY, DATAGEN_MEETINGS_PER_DAY_MESSAGE)
    .optional(),
);

/** Spec §3 "Source metadata by integration": the data generator (its volume is an optional addition). */
export const datagenMetadataSchema = z.object({
  company: optionalText(100, SOURCE_MESSAGES.companyTooLong, "Company name"),
  format: z.enum(DATAGEN_FORMATS, { errorMap: () => ({ message: SOURCE_MESSAGES.formatRequired }) }),
  meetings_per_day: meetingsPerDay,
});

export const datagenManifest = defineSource({
  name: "datagen",
  label: "Data Generator",
  settings: datagenMetadataSchema,
  settingsRules: datagenMetadataSchema,
  needsVerification: false,
  synthetic: true,
  platforms: DATAGEN_FORMATS,
  // A source produces the one style it was set up with.
  platformOf: (settings) => (DATAGEN_FORMATS as readonly unknown[]).includes(settings.format) ? (settings.format as string) : null,
  streams: meetingStreams({ zoom: [".vtt", ".txt"], gong: [".json", ".txt"] }),
  // Nothing to sign in to: the callback makes the credential.
  setupCalls: { callback: call("POST", callbackResponseSchema) },
  settingLabels: { company: "Company name", format: "Data style" },
});
