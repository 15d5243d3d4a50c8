import { and, asc, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { alertDeliveries, alertRecipients, alertSettings, connectors, syncRuns, transformRuns, transforms, workspaceMembers } from "./schema.js";
import { isUuid } from "./values.js";
import type { Executor } from "./runs.js";
import { inWorkspace } from "./scope.js";

/**
 * The SQL of alerts (backend/alerts/): a workspace's settings (webhook, thresholds) and the deliveries sent for it,
 * always by workspace; a member's own address for a workspace's alerts, always by workspace and member.
 */

export type AlertSettingsRow = typeof alertSettings.$inferSelect;
export type AlertRecipientRow = typeof alertRecipients.$inferSelect;
/** One alert sent (or being sent) by e-mail or webhook, as stored (the API's shape: backend/present/alerts.ts). */
export type AlertDeliveryRow = typeof alertDeliveries.$inferSelect;

/** The workspace's settings, or null when they were never saved. */
export async function findAlertSettings(db: Executor, ownerId: string): Promise<AlertSettingsRow | null> {
  const [row] = await db.select().from(alertSettings).where(inWorkspace(alertSettings, ownerId));
  return row ?? null;
}

export interface AlertSettingsValues {
  webhookUrl: string;
  warnAfter: number;
  pauseAfter: number;
}

/** Saves the workspace's settings; `sealedSecret` is stored only when the row is new (the secret stays once made). */
export async function saveAlertSettings(db: Executor, ownerId: string, values: AlertSettingsValues, sealedSecret: string): Promise<AlertSettingsRow> {
  const [row] = await db
    .insert(alertSettings)
    .values({ ownerId, ...values, signingSecret: sealedSecret })
    .onConflictDoUpdate({ target: alertSettings.ownerId, set: { ...values, updatedAt: new Date() } })
    .returning();
  return row!;
}

const recipientOf = (workspaceId: string, userId: string) => and(eq(alertRecipients.workspaceId, workspaceId), eq(alertRecipients.userId, userId));

/** The member's own address for the workspace's alerts, or null when they never saved one. */
export async function findRecipient(db: Executor, workspaceId: string, userId: string): Promise<AlertRecipientRow | null> {
  const [row] = await db.select().from(alertRecipients).where(recipientOf(workspaceId, userId));
  return row ?? null;
}

/**
 * Saves the member's own address for the workspace's alerts. `emailTokenHash` is given when the address changed: it is
 * unconfirmed again, with this token's hash (null for no address). Null when the user is not a member (any more).
 */
export async function saveRecipient(db: Executor, workspaceId: string, userId: string, email: string, emailTokenHash?: string | null): Promise<AlertRecipientRow | null> {
  const confirmation = emailTokenHash !== undefined ? { emailTokenHash, emailConfirmedAt: null } : {};
  const [row] = await db
    .insert(alertRecipients)
    .select(
      db
        .select({
          workspaceId: workspaceMembers.workspaceId,
          userId: workspaceMembers.userId,
          email: sql`${email}`.as("email"),
          emailConfirmedAt: sql`null::timestamptz`.as("email_confirmed_at"),
          emailTokenHash: sql`${emailTokenHash ?? null}::text`.as("email_token_hash"),
          createdAt: sql`now()`.as("created_at"),
          updatedAt: sql`null::timestamptz`.as("updated_at"),
        })
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId))),
    )
    .onConflictDoUpdate({ target: [alertRecipients.workspaceId, alertRecipients.userId], set: { email, ...confirmation, updatedAt: new Date() } })
    .returning();
  return row ?? null;
}

/** Every member's address for the workspace's alerts (confirmed or not); members without one are not listed. */
export function listRecipients(db: Executor, workspaceId: string): Promise<AlertRecipientRow[]> {
  return db
    .select()
    .from(alertRecipients)
    .where(and(eq(alertRecipients.workspaceId, workspaceId), ne(alertRecipients.email, "")))
    .orderBy(asc(alertRecipients.createdAt), asc(alertRecipients.userId));
}

/**
 * A new confirmation token's hash for the member's address `email` while it is unconfirmed (Send a new link); null
 * when it is not waiting any more (confirmed, or changed meanwhile).
 */
export async function renewEmailToken(db: Executor, workspaceId: string, userId: string, email: string, tokenHash: string): Promise<AlertRecipientRow | null> {
  const [row] = await db
    .update(alertRecipients)
    .set({ emailTokenHash: tokenHash })
    .where(and(recipientOf(workspaceId, userId), eq(alertRecipients.email, email), ne(alertRecipients.email, ""), isNull(alertRecipients.emailConfirmedAt)))
    .returning();
  return row ?? null;
}

/** Confirms the address whose latest link holds this token's hash: its address, or null for a link that is not valid. */
export async function confirmEmailToken(db: Executor, tokenHash: string): Promise<string | null> {
  const [row] = await db
    .update(alertRecipients)
    .set({ emailConfirmedAt: new Date(), emailTokenHash: null })
    .where(and(eq(alertRecipients.emailTokenHash, tokenHash), ne(alertRecipients.email, "")))
    .returning({ email: alertRecipients.email });
  return row?.email ?? null;
}

/** Replaces the owner's signing secret (Roll signing secret); null when they never saved settings (no secret yet). */
export async function rollSigningSecret(db: Executor, ownerId: string, sealedSecret: string): Promise<AlertSettingsRow | null> {
  const [row] = await db.update(alertSettings).set({ signingSecret: sealedSecret, updatedAt: new Date() }).where(inWorkspace(alertSettings, ownerId)).returning();
  return row ?? null;
}

/** The owner's newest deliveries, newest first. */
export function listDeliveries(db: Executor, ownerId: string, limit = 20): Promise<AlertDeliveryRow[]> {
  return db.select().from(alertDeliveries).where(inWorkspace(alertDeliveries, ownerId)).orderBy(desc(alertDeliveries.createdAt), desc(alertDeliveries.id)).limit(limit);
}

export async function insertDelivery(db: Executor, values: { ownerId: string; event: string; channel: string; target: string; subject: string; runId: string }): Promise<string> {
  const [row] = await db.insert(alertDeliveries).values(values).returning({ id: alertDeliveries.id });
  return row!.id;
}

export async function updateDelivery(db: Executor, id: string, values: { status?: string; attempts?: number; lastError?: string | null; finished?: boolean }): Promise<void> {
  const { finished, ...rest } = values;
  await db
    .update(alertDeliveries)
    .set({ ...rest, ...(finished ? { finishedAt: new Date() } : {}) })
    .where(eq(alertDeliveries.id, id));
}

/** What an alert names: the connector or transform a run belongs to, and for a transform, its connector. */
export interface RunSubject {
  name: string;
  ownerId: string;
  paused: boolean;
}

export async function connectorSubject(db: Executor, id: string): Promise<RunSubject | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select({ name: connectors.name, ownerId: connectors.ownerId, paused: connectors.paused }).from(connectors).where(eq(connectors.id, id));
  return row ?? null;
}

export async function transformSubject(db: Executor, id: string): Promise<RunSubject | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select({ name: transforms.name, ownerId: transforms.ownerId }).from(transforms).where(eq(transforms.id, id));
  return row ? { ...row, paused: false } : null;
}

/**
 * The failed runs in a row of a key that end with (and include) `runId`: every failed run of the key created after
 * its last success before `runId`, up to `runId` itself. 0 when `runId` did not fail.
 */
async function streak(db: Executor, table: typeof syncRuns | typeof transformRuns, keyColumn: typeof syncRuns.connectorId | typeof transformRuns.transformId, key: string, runId: string, status: "failed" | "succeeded"): Promise<number> {
  const t = table as typeof syncRuns;
  const result = await db.execute<{ n: number }>(sql`
    WITH this AS (SELECT ${t.createdAt} AS at FROM ${t} WHERE ${t.id} = ${runId}),
    last_success AS (
      SELECT max(${t.createdAt}) AS at FROM ${t}, this
      WHERE ${keyColumn} = ${key} AND ${t.status} = 'succeeded' AND ${t.createdAt} < this.at)
    SELECT count(*)::int AS n FROM ${t}, this, last_success
    WHERE ${keyColumn} = ${key} AND ${t.status} = 'failed' AND ${t.createdAt} < this.at
      AND (last_success.at IS NULL OR ${t.createdAt} > last_success.at)`);
  // The failures before this run, plus this run when it failed.
  return (result.rows[0]?.n ?? 0) + (status === "failed" ? 1 : 0);
}

/**
 * For a finished run: how many failures in a row it ends (a failed run, itself included) or ended (a succeeded run:
 * the failures just before it, so > 0 means it recovered).
 */
export function failuresInARow(db: Executor, kind: "sync" | "transform", key: string, runId: string, status: "failed" | "succeeded"): Promise<number> {
  return kind === "sync" ? streak(db, syncRuns, syncRuns.connectorId, key, runId, status) : streak(db, transformRuns, transformRuns.transformId, key, runId, status);
}
