import { z } from "zod";
import { optionalText, SOURCE_MESSAGES } from "./source-kit.js";
import type { SourceIntegration } from "./sources.js";

/** Zoom: cloud-recording transcripts of an account (or one group), through a user's OAuth consent. */

const zoomSettings = z.object({
  zoom_extraction_scope: z.enum(["ORG", "GROUP"], { errorMap: () => ({ message: "Please choose the extraction scope (entire organization or a specific group)" }) }),
  zoom_group_id: optionalText(200, "Zoom group id is too long", "Zoom group id"),
  zoom_group_name: optionalText(500, "Zoom group name is too long", "Zoom group name"),
});

/** Spec §3 "Source metadata by integration": Zoom. */
export const zoomMetadataSchema = zoomSettings.superRefine((v, ctx) => {
  if (v.zoom_extraction_scope === "GROUP" && !v.zoom_group_id) ctx.addIssue({ code: "custom", path: ["zoom_group_id"], message: SOURCE_MESSAGES.zoomGroupRequired });
});

export const zoomManifest = {
  kind: "source",
  name: "zoom",
  label: "Zoom",
  settings: zoomSettings,
  settingsRules: zoomMetadataSchema,
  needsVerification: false,
  platforms: ["zoom"],
  fileTypes: [".vtt", ".txt"],
} as const satisfies SourceIntegration;
