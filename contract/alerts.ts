import { z } from "zod";
import { storable } from "./text.js";

/**
 * Alerts (issue 27 item 6): where a user's failure, recovery, warning and auto-pause notices go, and when. One schema
 * serves the settings form and the API body; the backend checks a webhook's host on its own (https, public address).
 */

/** The header every webhook carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed by the signing secret. */
export const SIGNATURE_HEADER = "Tributary-Signature";
export const EVENT_HEADER = "Tributary-Event";
export const DELIVERY_HEADER = "Tributary-Delivery";

export const DEFAULT_WARN_AFTER = 3;
export const DEFAULT_PAUSE_AFTER = 10;
export const MAX_THRESHOLD = 1000;

export const ALERT_MESSAGES = {
  emailInvalid: "Please enter a valid e-mail address",
  webhookInvalid: "Please enter a valid URL, such as https://example.com/hooks/tributary",
  webhookScheme: "The webhook URL must start with https://",
  webhookRefused: (reason: string) => `The webhook URL cannot be used: ${reason}.`,
  webhookTooLong: "The webhook URL must be 2,000 characters or fewer",
  warnRequired: "Please enter after how many failures in a row to warn",
  pauseRequired: "Please enter after how many failures in a row to pause a connector",
  threshold: (what: string) => `${what} must be a whole number from 1 to ${MAX_THRESHOLD}`,
  pauseAfterWarn: "Auto-pause must come after the warning: choose a number greater than the warning's",
  emailUnavailable: "E-mail alerts are unavailable on this server.",
  noSecretYet: "Save your settings once to get a signing secret.",
  secretRolled: "Signing secret rolled: webhooks are now signed with the new secret only.",
  rollFailed: "Failed to roll the signing secret.",
  saveFailed: "Failed to save alert settings.",
  fetchFailed: "Failed to fetch alert settings",
  /** Finding F3: alert e-mails go to a confirmed address only, and only so many an hour. */
  confirmationSent: (email: string) => `We sent a confirmation link to ${email}. Alert e-mails go there once it is opened.`,
  confirmationLimited: "Too many confirmation e-mails were sent in the last hour. Try again later.",
  confirmationFailed: "The confirmation e-mail could not be sent. Try again later.",
  confirmed: (email: string) => `Confirmed: alert e-mails will go to ${email}.`,
  confirmLinkInvalid: "This confirmation link is not valid any more. Open the latest one we sent, or send a new one from the alert settings.",
  confirmFailed: "Failed to confirm the address.",
  nothingToConfirm: "There is no e-mail address waiting for confirmation.",
  alertEmailsLimited: (max: number) => `Not sent: more than ${max} alert e-mails went to this address in the last hour.`,
  notConfirmed: "Not sent: the address is not confirmed yet.",
} as const;
const M = ALERT_MESSAGES;

/** Whether a backend message is about the webhook URL (the page shows it at that field). */
export const isWebhookMessage = (message: string) => message.startsWith("The webhook URL");

/**
 * A text field a user may leave empty. conform turns an empty input into undefined before any schema of ours runs,
 * and would do the same again to a `z.string()` nested in a preprocess or a pipe (a bare "Required"): the field is
 * read as unknown, missing or blank meaning "", and `inner` checks the text itself.
 */
const optionalText = (inner: z.ZodType<string, z.ZodTypeDef, unknown>, invalid: string) =>
  z.unknown().transform((raw, ctx): string => {
    const value = raw === null || raw === undefined ? "" : raw;
    if (typeof value !== "string") {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: invalid });
      return z.NEVER;
    }
    const result = inner.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ code: z.ZodIssueCode.custom, message: issue.message });
    return z.NEVER;
  });

const emailSchema = optionalText(
  storable(z.string().trim().max(320, M.emailInvalid), "E-mail").pipe(z.union([z.literal(""), z.string().email(M.emailInvalid)])),
  M.emailInvalid,
);

const webhookSchema = optionalText(
  storable(z.string().trim().max(2000, M.webhookTooLong), "Webhook URL").superRefine((value, ctx) => {
    if (!value) return;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.webhookInvalid });
      return;
    }
    // http is accepted here only for what the server itself allows (a test's loopback server); the backend decides.
    if (url.protocol !== "https:" && url.protocol !== "http:") ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.webhookScheme });
    else if (!url.hostname || url.username || url.password) ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.webhookInvalid });
  }),
  M.webhookInvalid,
);

const threshold = (required: string, what: string) =>
  z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? undefined : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ required_error: required, invalid_type_error: M.threshold(what) })
      .int(M.threshold(what))
      .min(1, M.threshold(what))
      .max(MAX_THRESHOLD, M.threshold(what)),
  );

/** PUT /alerts/settings, and the settings form. */
export const alertSettingsBodySchema = z
  .object({
    email: emailSchema,
    webhook_url: webhookSchema,
    warn_after: threshold(M.warnRequired, "The warning threshold"),
    pause_after: threshold(M.pauseRequired, "The auto-pause threshold"),
  })
  .superRefine((v, ctx) => {
    if (v.pause_after <= v.warn_after) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["pause_after"], message: M.pauseAfterWarn });
  });
export type AlertSettingsBody = z.infer<typeof alertSettingsBodySchema>;

export const ALERT_CHANNELS = ["email", "webhook"] as const;
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

export const alertDeliverySchema = z.object({
  id: z.string(),
  event: z.string(),
  channel: z.enum(ALERT_CHANNELS),
  target: z.string(),
  subject: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type AlertDelivery = z.infer<typeof alertDeliverySchema>;

/**
 * GET /alerts/settings (and PUT's answer): the workspace's webhook and thresholds, shared by its members (its signing
 * secret included, shown to them alone), and the signed-in member's own address for this workspace's alerts.
 */
export const alertSettingsSchema = z.object({
  /** The signed-in member's own address for this workspace's alerts (issue 51 item 5: each member sets their own). */
  email: z.string(),
  webhook_url: z.string(),
  warn_after: z.number().int(),
  pause_after: z.number().int(),
  /** Null until the settings are first saved: the server makes it then. */
  signing_secret: z.string().nullable(),
  signature_header: z.string(),
  /** False when the server has no SMTP_URL: e-mail alerts cannot be sent. */
  email_available: z.boolean(),
  /** Whether the address's owner opened its confirmation link: alert e-mails go to a confirmed address only. */
  email_confirmed: z.boolean().default(false),
  /** What saving did about confirming the address (sent a link, or was over the hour's limit); absent otherwise. */
  confirmation: z.enum(["sent", "limited", "failed"]).optional(),
  updated_at: z.string().nullable(),
  deliveries: z.array(alertDeliverySchema),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

/** PUT /alerts/settings and POST /alerts/signing-secret/roll: the settings as saved, and what was done. */
export const alertSettingsSavedSchema = alertSettingsSchema.extend({ message: z.string() });
/** POST /alerts/email/confirmation: a new link was mailed. */
export const confirmationSentSchema = alertSettingsSchema.extend({ confirmation: z.enum(["sent", "limited", "failed"]), message: z.string() });
/** POST /email-confirmations: the address confirmed. */
export const emailConfirmedSchema = z.object({ email: z.string(), message: z.string() });

/** What a webhook's body says happened (its `type`). */
export const ALERT_EVENTS = ["sync.failed", "sync.warning", "sync.recovered", "connector.paused", "transform.failed", "transform.warning", "transform.recovered"] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** POST /alerts/email/confirm (the confirmation link's page): the token from the e-mail. */
export const confirmEmailBodySchema = z.object({ token: z.string().min(1).max(200) });
