import { z } from "zod";
import { defineSource, optionalText, orgOrUnit, SOURCE_MESSAGES } from "./source-kit.js";
import { EMAIL_STREAMS } from "./streams.js";
import { storable } from "../text.js";
import { authOptionsResponseSchema, authUrlResponseSchema, call, callbackResponseSchema, connectionTestResponseSchema, credentialIdSchema, googleGroupSchema } from "./setup-calls.js";

/** Gmail: a Workspace's mail through a service account (domain-wide delegation), or one mailbox through OAuth. */

/** Gmail authentication modes (GET /externalauth/gmail/get_auth_options). The first is the default. */
export const GMAIL_AUTH_MODES = [
  { mode: "service_account", label: "Google Workspace service account (domain-wide delegation)" },
  { mode: "service_account_verified", label: "Google Workspace service account, verified by a test connection" },
  { mode: "individual", label: "Individual mailbox (sign in with Google)" },
] as const;
export type GmailAuthMode = (typeof GMAIL_AUTH_MODES)[number]["mode"];
export const DEFAULT_GMAIL_AUTH_MODE: GmailAuthMode = "service_account";

/** A Workspace's mail, or one Google group's ("INDIVIDUAL": one mailbox, through OAuth). */
const scope = orgOrUnit({
  scope: "gmail_extraction_scope",
  unit: "GROUP",
  more: ["INDIVIDUAL"],
  id: "gmail_group_id",
  name: "gmail_group_name",
  word: "group",
  label: "Google group",
  required: SOURCE_MESSAGES.gmailGroupRequired,
});

const gmailSettings = z.object({
  gmail_extraction_scope: scope.shape.gmail_extraction_scope,
  admin_email: optionalText(320, SOURCE_MESSAGES.adminEmailInvalid, "Admin e-mail"),
  gmail_group_id: scope.shape.gmail_group_id,
  gmail_group_email: optionalText(320, "Google group e-mail is too long", "Google group e-mail"),
  gmail_group_name: scope.shape.gmail_group_name,
  gmail_auth_mode: z.enum(GMAIL_AUTH_MODES.map((m) => m.mode) as [GmailAuthMode, ...GmailAuthMode[]]).default(DEFAULT_GMAIL_AUTH_MODE),
});

/** Spec §3 "Source metadata by integration": Gmail. */
export const gmailMetadataSchema = gmailSettings.superRefine((v, ctx) => {
  if (v.gmail_extraction_scope === "INDIVIDUAL") return;
  if (!v.admin_email) ctx.addIssue({ code: "custom", path: ["admin_email"], message: SOURCE_MESSAGES.adminEmailRequired });
  else if (!z.string().email().safeParse(v.admin_email).success) ctx.addIssue({ code: "custom", path: ["admin_email"], message: SOURCE_MESSAGES.adminEmailInvalid });
  scope.rule(v, ctx);
});

/** Gmail's callback: a service-account mode, or the authorization code of the INDIVIDUAL OAuth redirect. */
export const gmailCallbackBodySchema = z
  .object({
    code: storable(z.string().min(1, "code is required").max(4096), "code").optional(),
    mode: z.enum(GMAIL_AUTH_MODES.map((m) => m.mode) as [GmailAuthMode, ...GmailAuthMode[]], { errorMap: () => ({ message: SOURCE_MESSAGES.gmailAuthTypeRequired }) }).optional(),
  })
  .refine((b) => b.code || (b.mode && b.mode !== "individual"), { message: SOURCE_MESSAGES.gmailAuthTypeRequired });
export const gmailGroupsBodySchema = z.object({
  credential_id: credentialIdSchema,
  admin_email: storable(z.string({ required_error: SOURCE_MESSAGES.adminEmailRequired }).trim().min(1, SOURCE_MESSAGES.adminEmailRequired).email(SOURCE_MESSAGES.adminEmailInvalid).max(320), "Admin e-mail"),
});
export const gmailTestBodySchema = z.object({
  credential_id: credentialIdSchema,
  /** Required for the service-account modes; an individual mailbox tests itself. */
  admin_email: z.string().trim().email(SOURCE_MESSAGES.adminEmailInvalid).max(320).optional().or(z.literal("").transform(() => undefined)),
  group_ids: z.array(storable(z.string().max(200), "A group id")).max(100).optional(),
});

export const gmailManifest = defineSource({
  name: "gmail",
  label: "Gmail",
  settings: gmailSettings,
  settingsRules: gmailMetadataSchema,
  needsVerification: true,
  // The default service-account mode is trusted as set up; the others are verified by test_connection.
  verificationRequired: (settings) => settings.gmail_auth_mode !== DEFAULT_GMAIL_AUTH_MODE,
  platforms: ["gmail"],
  streams: EMAIL_STREAMS,
  authModes: { field: "gmail_auth_mode", modes: GMAIL_AUTH_MODES, defaultMode: DEFAULT_GMAIL_AUTH_MODE, required: SOURCE_MESSAGES.gmailAuthTypeRequired },
  setupCalls: {
    get_auth_options: call("GET", authOptionsResponseSchema),
    auth_url: call("GET", authUrlResponseSchema),
    callback: call("POST", callbackResponseSchema, gmailCallbackBodySchema),
    "get-groups": call("POST", z.object({ groups: z.array(googleGroupSchema) }), gmailGroupsBodySchema),
    test_connection: call("POST", connectionTestResponseSchema, gmailTestBodySchema),
  },
  settingLabels: {
    gmail_extraction_scope: "Extraction scope",
    admin_email: "Workspace admin e-mail",
    gmail_group_name: "Google group",
    gmail_group_email: "Google group e-mail",
  },
});
