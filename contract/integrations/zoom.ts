import { z } from "zod";
import { defineSource, orgOrUnit, SOURCE_MESSAGES, TRANSCRIPT_FILE_TYPES } from "./source-kit.js";
import { meetingStreams } from "./streams.js";
import { call, credentialBodySchema, oauthCalls } from "./setup-calls.js";

/** Zoom: cloud-recording transcripts of an account (or one group), through a user's OAuth consent. */

const scope = orgOrUnit({ scope: "zoom_extraction_scope", unit: "GROUP", id: "zoom_group_id", name: "zoom_group_name", word: "group", label: "Zoom group", required: SOURCE_MESSAGES.zoomGroupRequired });
const zoomSettings = z.object(scope.shape);

/** Spec §3 "Source metadata by integration": Zoom. */
export const zoomMetadataSchema = zoomSettings.superRefine(scope.rule);

/** A Zoom group (GET /groups), as the group list shows it. */
export const zoomGroupSchema = z.object({ id: z.string(), name: z.string(), total_members: z.number() });
export type ZoomGroup = z.infer<typeof zoomGroupSchema>;

export const zoomManifest = defineSource({
  name: "zoom",
  label: "Zoom",
  settings: zoomSettings,
  settingsRules: zoomMetadataSchema,
  needsVerification: false,
  platforms: ["zoom"],
  streams: meetingStreams({ zoom: TRANSCRIPT_FILE_TYPES }),
  setupCalls: { ...oauthCalls, "get-groups": call("POST", z.object({ groups: z.array(zoomGroupSchema) }), credentialBodySchema) },
  settingLabels: { zoom_extraction_scope: "Extraction scope", zoom_group_name: "Zoom group" },
});
