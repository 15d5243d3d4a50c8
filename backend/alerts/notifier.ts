import type { Database } from "../db/client.js";
import { connectorSubject, failuresInARow, findAlertSettings, insertDelivery, listRecipients, transformSubject, updateDelivery, type RunSubject } from "../db/alerts.js";
import { setPaused } from "../db/connectors.js";
import type { SecretBox } from "../lib/crypto.js";
import type { Logger } from "../lib/log.js";
import type { OutcomeListener, RunOutcome } from "../runs/engine.js";
import { ALERT_MESSAGES, DEFAULT_PAUSE_AFTER, DEFAULT_WARN_AFTER, type AlertEvent } from "../../contract/alerts.js";
import { ALERT_EMAILS_PER_HOUR, mayAlert } from "./limits.js";
import { defaultFrom, sendEmail } from "./email.js";
import { deliverWebhook } from "./webhook.js";

/**
 * The runs engine's one alerts hook: told every run's final outcome once it is stored, it works in the background
 * (the run is already over and never waits for it), and logs what goes wrong instead of throwing. It decides what
 * happened — failed, a warning after N failures in a row, recovered, or an auto-pause after M (through the
 * connector's pause) — and sends it to the workspace's webhook and to every member's own address for its alerts, recording each delivery.
 */

export interface AlertServices {
  db: Database;
  secrets: SecretBox;
  log: Logger;
  config: { APP_URL: string; SMTP_URL?: string; SMTP_FROM?: string };
}

export interface Alerts {
  onOutcome: OutcomeListener;
  /** Waits (at most `ms`) for the alerts being sent: before the process stops. */
  drain(ms: number): Promise<void>;
}

type Kind = "sync" | "transform";

/** What one alert says: its event, subject line, text, and the webhook's data. */
export interface AlertMessage {
  event: AlertEvent;
  subject: string;
  text: string;
  data: Record<string, unknown>;
}

/** The run's own page (its attempts, where its data landed, its log). */
function runUrl(appUrl: string, kind: Kind, outcome: RunOutcome): string {
  const owner = kind === "sync" ? `/connectors/details/${outcome.key}` : `/transforms/details/${outcome.key}`;
  return new URL(`${owner}/runs/${outcome.runId}`, appUrl).href;
}

/** The alert for an outcome, or null when there is nothing to say (a success after a success). */
export function composeAlert(input: { kind: Kind; outcome: RunOutcome; subject: RunSubject; failures: number; warnAfter: number; paused: boolean; url: string }): AlertMessage | null {
  const { kind, outcome, subject, failures, warnAfter, paused, url } = input;
  const what = kind === "sync" ? `connector "${subject.name}"` : `transform "${subject.name}"`;
  const run = kind === "sync" ? "sync" : "run";
  let event: AlertEvent;
  let title: string;
  const lines: string[] = [];
  if (outcome.status === "succeeded") {
    if (failures === 0) return null;
    event = kind === "sync" ? "sync.recovered" : "transform.recovered";
    title = `Recovered: the ${what} ran successfully`;
    lines.push(`The ${run} of the ${what} succeeded after ${failures} failure${failures === 1 ? "" : "s"} in a row.`);
  } else if (paused) {
    event = "connector.paused";
    title = `Paused: the ${what} failed ${failures} times in a row`;
    lines.push(`The ${run} of the ${what} failed ${failures} times in a row, so Tributary paused its schedule.`);
    lines.push("Fix the cause, then resume the connector on its page.");
  } else if (failures === warnAfter) {
    event = kind === "sync" ? "sync.warning" : "transform.warning";
    title = `Warning: the ${what} failed ${failures} times in a row`;
    lines.push(`The ${run} of the ${what} failed ${failures} times in a row.`);
  } else {
    event = kind === "sync" ? "sync.failed" : "transform.failed";
    title = `Failed: the ${run} of the ${what}`;
    lines.push(`The ${run} of the ${what} failed${failures > 1 ? ` (${failures} failures in a row)` : ""}.`);
  }
  if (outcome.error) lines.push("", `Error: ${outcome.error}`);
  lines.push("", `Details: ${url}`);
  const data = {
    [kind === "sync" ? "connector" : "transform"]: { id: outcome.key, name: subject.name },
    run: { id: outcome.runId, status: outcome.status, error: outcome.error },
    failures_in_a_row: outcome.status === "failed" ? failures : 0,
    ...(kind === "sync" ? { paused: paused || subject.paused } : {}),
    url,
  };
  return { event, subject: title, text: `${lines.join("\n")}\n`, data };
}

async function handle(services: AlertServices, outcome: RunOutcome): Promise<void> {
  const { db, log } = services;
  if (outcome.kind !== "sync" && outcome.kind !== "transform") return;
  // A cancel is the user's own act, neither a failure nor a recovery; the failures in a row skip cancelled runs.
  if (outcome.status === "cancelled") return;
  const kind: Kind = outcome.kind;
  const subject = kind === "sync" ? await connectorSubject(db, outcome.key) : await transformSubject(db, outcome.key);
  if (!subject) return;
  const settings = await findAlertSettings(db, subject.ownerId);
  const warnAfter = settings?.warnAfter ?? DEFAULT_WARN_AFTER;
  const pauseAfter = settings?.pauseAfter ?? DEFAULT_PAUSE_AFTER;
  const failures = await failuresInARow(db, kind, outcome.key, outcome.runId, outcome.status);
  let paused = false;
  if (kind === "sync" && outcome.status === "failed" && failures >= pauseAfter && !subject.paused) {
    // The connector's own pause (what its Pause button does), so Resume undoes it.
    paused = await setPaused(db, subject.ownerId, outcome.key, true);
    if (paused) log.warn({ connectorId: outcome.key, failures }, "connector paused after failing in a row");
  }
  // Issue 51 item 5: e-mail goes to each member who set their own address for this workspace's alerts.
  const { SMTP_URL } = services.config;
  const recipients = SMTP_URL ? await listRecipients(db, subject.ownerId) : [];
  const webhookUrl = settings?.webhookUrl ?? "";
  if (recipients.length === 0 && !webhookUrl) return;
  const message = composeAlert({ kind, outcome, subject, failures, warnAfter, paused, url: runUrl(services.config.APP_URL, kind, outcome) });
  if (!message) return;
  const sends: Promise<void>[] = [];
  // Finding F3: e-mail goes to a confirmed address only (an unconfirmed one is skipped, said once per alert in the
  // deliveries), and at most ALERT_EMAILS_PER_HOUR an hour per workspace and address (beyond: recorded as not sent).
  if (SMTP_URL) {
    const from = services.config.SMTP_FROM || defaultFrom(services.config.APP_URL);
    for (const recipient of recipients) {
      sends.push(
        deliver(services, subject.ownerId, outcome.runId, message, "email", recipient.email, async (record) => {
          if (!recipient.emailConfirmedAt) throw new NotSent(ALERT_MESSAGES.notConfirmed);
          if (!(await mayAlert(db, subject.ownerId, recipient.email))) throw new NotSent(ALERT_MESSAGES.alertEmailsLimited(ALERT_EMAILS_PER_HOUR));
          await sendEmail({ smtpUrl: SMTP_URL, from }, { to: recipient.email, subject: message.subject, text: message.text }, record);
        }),
      );
    }
  }
  if (settings && webhookUrl) {
    const secret = services.secrets.open<string>(settings.signingSecret);
    sends.push(
      deliver(services, subject.ownerId, outcome.runId, message, "webhook", webhookUrl, (record, id) => {
        const body = JSON.stringify({ id, type: message.event, created_at: new Date().toISOString(), subject: message.subject, data: message.data });
        return deliverWebhook({ id, event: message.event, url: webhookUrl, secret, body }, record);
      }),
    );
  }
  await Promise.all(sends);
}

/** An alert e-mail that is not sent at all (an unconfirmed address, over the hour's limit): no attempt is made. */
class NotSent extends Error {}

/** Records a delivery, sends it, and records each attempt and the end: delivered or failed with its last error. */
async function deliver(
  services: AlertServices,
  ownerId: string,
  runId: string,
  message: AlertMessage,
  channel: "email" | "webhook",
  target: string,
  send: (record: (attempt: number, error: string | null) => Promise<void>, id: string) => Promise<void>,
): Promise<void> {
  const { db, log } = services;
  const id = await insertDelivery(db, { ownerId, event: message.event, channel, target, subject: message.subject, runId });
  const record = (attempt: number, error: string | null) => updateDelivery(db, id, { attempts: attempt, lastError: error });
  try {
    await send(record, id);
    await updateDelivery(db, id, { status: "delivered", finished: true });
  } catch (error) {
    if (error instanceof NotSent) {
      await updateDelivery(db, id, { status: "failed", lastError: error.message, finished: true });
      return;
    }
    await updateDelivery(db, id, { status: "failed", finished: true });
    // Never the target's secret or the SMTP URL: the delivery, its channel and what went wrong.
    log.warn({ deliveryId: id, channel, event: message.event, err: (error as Error).message }, "alert not delivered");
  }
}

export function createAlerts(services: AlertServices): Alerts {
  const inFlight = new Set<Promise<void>>();
  return {
    onOutcome(outcome) {
      const work = handle(services, outcome).catch((error: unknown) => {
        services.log.error({ runId: outcome.runId, err: (error as Error).message }, "alerts for a run failed");
      });
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    },
    async drain(ms) {
      if (inFlight.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
      clearTimeout(timer);
    },
  };
}
