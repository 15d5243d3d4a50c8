import { z } from "zod";
import { defineSource, optionalText, orgOrUnit, SOURCE_MESSAGES } from "./source-kit.js";
import { EMAIL_STREAMS } from "./streams.js";

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
});
