import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../db/client.js";
import { rateLimits } from "../db/schema.js";

/**
 * Finding F3: how many e-mails Tributary sends an address, per hour, whatever process sends them (the counts live in
 * Postgres, rate-limiter-flexible's Drizzle store). Confirmation links: a few per user and per address; alert e-mails:
 * a burst's worth per user and address.
 */
export const CONFIRMATIONS_PER_HOUR = 3;
export const ALERT_EMAILS_PER_HOUR = 20;
const HOUR = 3600;

const limiters = new WeakMap<Database, { confirm: RateLimiterDrizzle; alert: RateLimiterDrizzle }>();

function of(db: Database) {
  let found = limiters.get(db);
  if (!found) {
    const store = { schema: rateLimits, storeClient: db, clearExpiredByTimeout: false };
    found = {
      confirm: new RateLimiterDrizzle({ ...store, keyPrefix: "alert-confirm", points: CONFIRMATIONS_PER_HOUR, duration: HOUR }),
      alert: new RateLimiterDrizzle({ ...store, keyPrefix: "alert-email", points: ALERT_EMAILS_PER_HOUR, duration: HOUR }),
    };
    limiters.set(db, found);
  }
  return found;
}

/** Takes one point from each key; false (nothing taken beyond the limit) when one of them is used up this hour. */
async function take(limiter: RateLimiterDrizzle, keys: string[]): Promise<boolean> {
  try {
    for (const key of keys) await limiter.consume(key);
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}

/**
 * The mailbox an address reaches, as the counts key it: lowercased, without a `+tag` on its local part
 * (`Victim+two@Example.com` and `victim@example.com` are one mailbox), so that tagged variants share one count.
 */
export function mailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  const local = address.slice(0, at);
  const plus = local.indexOf("+");
  return `${plus > 0 ? local.slice(0, plus) : local}${address.slice(at)}`;
}

/** May one more confirmation link go to `email` for this user this hour? (Per user, and per mailbox across users.) */
export const mayConfirm = (db: Database, userId: string, email: string) => take(of(db).confirm, [`user:${userId}`, `to:${mailbox(email)}`]);

/** May one more alert e-mail go from this workspace's alerts to `email` this hour? */
export const mayAlert = (db: Database, workspaceId: string, email: string) => take(of(db).alert, [`${workspaceId}:${mailbox(email)}`]);
