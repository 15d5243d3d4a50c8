import { z } from "zod";
import { defineSource, optionalText, orgOrUnit, SOURCE_MESSAGES, TRANSCRIPT_FILE_TYPES } from "./source-kit.js";
import { meetingStreams } from "./streams.js";
import { storable } from "../text.js";
import { call, callbackResponseSchema, connectionTestResponseSchema, credentialIdSchema, googleGroupSchema } from "./setup-calls.js";

/**
 * Google Meet: a Workspace's conference records and their transcripts (Meet REST API v2) through Tributary's
 * service account with domain-wide delegation, as Gmail's service-account mode; the organization's users or one
 * Google group's members.
 */

const scope = orgOrUnit({
  scope: "meet_extraction_scope",
  unit: "GROUP",
  id: "meet_group_id",
  name: "meet_group_name",
  word: "group",
  label: "Google group",
  required: SOURCE_MESSAGES.gmailGroupRequired,
});

const meetSettings = z.object({
  meet_extraction_scope: scope.shape.meet_extraction_scope,
  admin_email: optionalText(320, SOURCE_MESSAGES.adminEmailInvalid, "Admin e-mail"),
  meet_group_id: scope.shape.meet_group_id,
  meet_group_email: optionalText(320, "Google group e-mail is too long", "Google group e-mail"),
  meet_group_name: scope.shape.meet_group_name,
});

/** Spec §3 "Source metadata by integration": Google Meet. */
export const meetMetadataSchema = meetSettings.superRefine((v, ctx) => {
  if (!v.admin_email) ctx.addIssue({ code: "custom", path: ["admin_email"], message: SOURCE_MESSAGES.adminEmailRequired });
  else if (!z.string().email().safeParse(v.admin_email).success) ctx.addIssue({ code: "custom", path: ["admin_email"], message: SOURCE_MESSAGES.adminEmailInvalid });
  scope.rule(v, ctx);
});

const adminEmail = storable(
  z
    .string({ required_error: SOURCE_MESSAGES.adminEmailRequired, invalid_type_error: SOURCE_MESSAGES.adminEmailInvalid })
    .trim()
    .min(1, SOURCE_MESSAGES.adminEmailRequired)
    .email(SOURCE_MESSAGES.adminEmailInvalid)
    .max(320, SOURCE_MESSAGES.adminEmailInvalid),
  "Admin e-mail",
);

/** Meet's callback: no redirect, nothing to send; it authenticates Tributary's service account. */
export const meetCallbackBodySchema = z.object({}).passthrough();
export const meetGroupsBodySchema = z.object({ credential_id: credentialIdSchema, admin_email: adminEmail });
export const meetTestBodySchema = z.object({
  credential_id: credentialIdSchema,
  admin_email: adminEmail,
  group_ids: z.array(storable(z.string().max(200), "A group id")).max(100).optional(),
});

export const meetManifest = defineSource({
  name: "meet",
  label: "Google Meet",
  settings: meetSettings,
  settingsRules: meetMetadataSchema,
  needsVerification: true,
  platforms: ["meet"],
  streams: meetingStreams({ meet: TRANSCRIPT_FILE_TYPES }),
  setupCalls: {
    callback: call("POST", callbackResponseSchema, meetCallbackBodySchema),
    "get-groups": call("POST", z.object({ groups: z.array(googleGroupSchema) }), meetGroupsBodySchema),
    test_connection: call("POST", connectionTestResponseSchema, meetTestBodySchema),
  },
  settingLabels: {
    meet_extraction_scope: "Extraction scope",
    admin_email: "Workspace admin e-mail",
    meet_group_name: "Google group",
    meet_group_email: "Google group e-mail",
  },
});
