import { z } from "zod";
import { defineSource, optionalText, orgOrUnit } from "./source-kit.js";
import { EMAIL_STREAMS } from "./streams.js";
import { authUrlResponseSchema, call, callbackResponseSchema, connectionTestResponseSchema, credentialBodySchema, credentialIdSchema } from "./setup-calls.js";
import { teamsCallbackBodySchema } from "./teams.js";

/**
 * Outlook: the mail of a Microsoft 365 organization's mailboxes (or of one mail-enabled group's members) through
 * Microsoft Graph, with the Microsoft app registration of Teams (the Mail.Read application permission, admin consent).
 * Its messages land as Gmail's do, in the `email_messages` stream, so the e-mail templates read them unchanged.
 */

export const OUTLOOK_MESSAGES = {
  groupRequired: "Please select a Microsoft 365 group",
} as const;

const scope = orgOrUnit({
  scope: "outlook_extraction_scope",
  unit: "GROUP",
  id: "outlook_group_id",
  name: "outlook_group_name",
  word: "group",
  label: "Microsoft 365 group",
  required: OUTLOOK_MESSAGES.groupRequired,
});
const outlookSettings = z.object(scope.shape);

/** An Outlook source's metadata: the whole organization's mailboxes, or one group's members'. */
export const outlookMetadataSchema = outlookSettings.superRefine(scope.rule);

/** A mail-enabled group of the tenant (Graph's GET /groups), as the group list shows it. */
export const outlookGroupSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type OutlookGroup = z.infer<typeof outlookGroupSchema>;

/** The connection test: a token for the tenant, and one message of a mailbox in the scope. */
export const outlookTestBodySchema = z
  .object({
    credential_id: credentialIdSchema,
    scope: z.enum(["ORG", "GROUP"], { errorMap: () => ({ message: "scope must be ORG or GROUP" }) }),
    group_id: optionalText(200, "group_id is too long", "group_id"),
  })
  .refine((b) => b.scope !== "GROUP" || !!b.group_id, { message: OUTLOOK_MESSAGES.groupRequired, path: ["group_id"] });

const OUTLOOK_COLUMN_WORDS: Record<string, string> = {
  message_id: "Outlook's message id (immutable)",
  thread_id: "The conversation it belongs to",
  sent_at: "When the mailbox received it",
  snippet: "Outlook's body preview",
  labels: "Outlook's categories",
};

export const outlookManifest = defineSource({
  name: "outlook",
  label: "Outlook",
  settings: outlookSettings,
  settingsRules: outlookMetadataSchema,
  needsVerification: true,
  platforms: ["outlook"],
  // Gmail's stream, its columns as they are (the e-mail templates read them), said of Outlook where they name Gmail.
  streams: EMAIL_STREAMS.map((s) => ({ ...s, columns: s.columns.map((c) => ({ ...c, description: OUTLOOK_COLUMN_WORDS[c.name] ?? c.description })), files: { outlook: [".json", ".txt"] } })),
  setupCalls: {
    auth_url: call("GET", authUrlResponseSchema),
    callback: call("POST", callbackResponseSchema, teamsCallbackBodySchema),
    "get-groups": call("POST", z.object({ groups: z.array(outlookGroupSchema) }), credentialBodySchema),
    test_connection: call("POST", connectionTestResponseSchema, outlookTestBodySchema),
  },
  settingLabels: { outlook_extraction_scope: "Extraction scope", outlook_group_name: "Microsoft 365 group" },
});
