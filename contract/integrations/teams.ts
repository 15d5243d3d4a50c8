import { z } from "zod";
import { optionalText, SOURCE_MESSAGES } from "./source-kit.js";
import type { SourceIntegration } from "./sources.js";

/** Microsoft Teams: meeting transcripts through Graph, after an admin's consent and a verified setup. */

const teamsSettings = z.object({
  teams_extraction_scope: z.enum(["ORG", "TEAM"], { errorMap: () => ({ message: "Please choose the extraction scope (entire organization or a specific team)" }) }),
  team_id: optionalText(200, "Team id is too long", "Team id"),
  team_name: optionalText(500, "Team name is too long", "Team name"),
});

/** Spec §3 "Source metadata by integration": Microsoft Teams. */
export const teamsMetadataSchema = teamsSettings.superRefine((v, ctx) => {
  if (v.teams_extraction_scope === "TEAM" && !v.team_id) ctx.addIssue({ code: "custom", path: ["team_id"], message: SOURCE_MESSAGES.teamRequired });
});

export const teamsManifest = {
  kind: "source",
  name: "teams",
  label: "Microsoft Teams",
  settings: teamsSettings,
  settingsRules: teamsMetadataSchema,
  needsVerification: true,
  platforms: ["teams"],
  fileTypes: [".vtt", ".txt"],
} as const satisfies SourceIntegration;
