import { z } from "zod";
import { defineSource, orgOrUnit, SOURCE_MESSAGES, TRANSCRIPT_FILE_TYPES } from "./source-kit.js";
import { meetingStreams } from "./streams.js";

/** Microsoft Teams: meeting transcripts through Graph, after an admin's consent and a verified setup. */

const scope = orgOrUnit({ scope: "teams_extraction_scope", unit: "TEAM", id: "team_id", name: "team_name", word: "team", label: "Team", required: SOURCE_MESSAGES.teamRequired });
const teamsSettings = z.object(scope.shape);

/** Spec §3 "Source metadata by integration": Microsoft Teams. */
export const teamsMetadataSchema = teamsSettings.superRefine(scope.rule);

export const teamsManifest = defineSource({ name: "teams", label: "Microsoft Teams", settings: teamsSettings, settingsRules: teamsMetadataSchema, needsVerification: true, platforms: ["teams"], streams: meetingStreams({ teams: TRANSCRIPT_FILE_TYPES }) });
