import { z } from "zod";
import { optionalText, SOURCE_MESSAGES } from "./source-kit.js";
import type { SourceIntegration } from "./sources.js";

/** Gmail: a Workspace's mail through a service account (domain-wide delegation), or one mailbox through OAuth. */

/** Gmail authentication modes (GET /externalauth/gmail/get_auth_options). The first is the default. */
export const GMAIL_AUTH_MODES = [
  { mode: "service_account", label: "Google Workspace service account (domain-wide delegation)" },
  { mode: "service_account_verified", label: "Google Workspace service account, verified by a test connection" },
  { mode: "individual", label: "Individual mailbox (sign in with Google)" },
] as const;
export type GmailAuthMode = (typeof GMAIL_AUTH_MODES)[number]["mode"];
export const DEFAULT_GMAIL_AUTH_MODE: GmailAuthMode = "service_account";

const gmailSettings = z.object({
  gmail_extraction_scope: z.enum(["ORG", "GROUP", "INDIVIDUAL"], { errorMap: () => ({ message: "Please choose the extraction scope (entire organization or a specific group)" }) }),
  admin_email: optionalText(320, SOURCE_MESSAGES.adminEmailInvalid, "Admin e-mail"),
  gmail_group_id: optionalText(200, "Google group id is too long", "Google group id"),
  gmail_group_email: optionalText(320, "Google group e-mail is too long", "Google group e-mail"),
  gmail_group_name: optionalText(500, "Google group name is too long", "Google group name"),
  gmail_auth_mode: z.enum(GMAIL_AUTH_MODES.map((m) => m.mode) as [GmailAuthMode, ...GmailAuthMode[]]).default(DEFAULT_GMAIL_AUTH_MODE),
});

/** Spec §3 "Source metadata by integration": Gmail. */
export const gmailMetadataSchema = gmailSettings.superRefine((v, ctx) => {
  if (v.gmail_extraction_scope === "INDIVIDUAL") return;
  if (!v.admin_email) ctx.addIssue({ code: "custom", path: ["admin_email"], message: SOURCE_MESSAGES.adminEmailRequired });
  else if (!z.string().email().safeParse(v.admin_email).success) ctx.addIssue({ code: "custom", path: ["admin_email"], message: SOURCE_MESSAGES.adminEmailInvalid });
  if (v.gmail_extraction_scope === "GROUP" && !v.gmail_group_id) ctx.addIssue({ code: "custom", path: ["gmail_group_id"], message: SOURCE_MESSAGES.gmailGroupRequired });
});

export const gmailManifest = {
  kind: "source",
  name: "gmail",
  label: "Gmail",
  settings: gmailSettings,
  settingsRules: gmailMetadataSchema,
  needsVerification: true,
  // The default service-account mode is trusted as set up; the others are verified by test_connection.
  verificationRequired: (settings) => settings.gmail_auth_mode !== DEFAULT_GMAIL_AUTH_MODE,
  platforms: ["gmail"],
  fileTypes: [".json", ".txt"],
} as const satisfies SourceIntegration;
