import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import pRetry from "p-retry";
import type { Logger } from "../lib/log.js";

/** The channel migration 0010's triggers notify with the owner's id when what their pages show changes. */
export const OWNER_CHANGES_CHANNEL = "tributary_owner_changes";
/** The channel this process notifies itself on to learn that it has read every change committed before (caughtUp). */
const BARRIER_CHANNEL = "tributary_changes_barrier";
/** How long a catch-up may take before the answer is "not known" (a version that matches nothing). */
const BARRIER_TIMEOUT_MS = 5_000;
/** The listening connection's name in pg_stat_activity. */
export const CHANGE_FEED_APPLICATION = "tributary change feed";

/**
 * Each user's data version as this process knows it: the page cache of the web server (scripts/page-cache.ts) keeps a
 * rendered list page under it, and the run event streams send a `runs` event when it moves.
 *
 * Writers change only their own rows: migration 0010's triggers `NOTIFY` the owner's id, which Postgres delivers when
 * the writing transaction commits, in commit order, to every listening process. One connection per API process listens
 * and counts; a version is `<process>-<epoch>.<count>`, so a version given out by another process, or before this one
 * lost its connection (and perhaps missed a change), never matches one given out now.
 */
export interface ChangeFeed {
  /** The owner's version now (changes committed a moment ago may not be counted yet: see freshVersion). */
  version(ownerId: string): string;
  /** The owner's version once every change committed before this call is counted (or one that matches nothing). */
  freshVersion(ownerId: string): Promise<string>;
  /** Whether its connection listens now (the process's readiness: /readyz). */
  listening(): boolean;
  /** Calls `changed` whenever the owner's version moves (each change, and a reconnection); answers the unsubscribe. */
  subscribe(ownerId: string, changed: () => void): () => void;
  stop(): Promise<void>;
}

interface Barrier {
  token: string;
  promise: Promise<boolean>;
  resolve(counted: boolean): void;
}

export async function startChangeFeed(options: { databaseUrl: string; log: Logger }): Promise<ChangeFeed> {
  const boot = randomBytes(6).toString("base64url");
  const versions = new Map<string, number>();
  const listeners = new Map<string, Set<() => void>>();
  const tell = (ownerId: string) => {
    for (const changed of listeners.get(ownerId) ?? []) changed();
  };
  const tellEveryone = () => {
    for (const ownerId of listeners.keys()) tell(ownerId);
  };
  let count = 0;
  let epoch = 0;
  let client: pg.Client | null = null;
  let stopped = false;
  const stopping = new AbortController();
  /** The catch-up sent and not yet seen come back, and the one callers wait on that goes out after it. */
  let inFlight: Barrier | null = null;
  let next: Barrier | null = null;

  const unknown = () => `${boot}-${epoch}x.${++count}`;
  // The owner is in the version: a member who switches workspace (same session, same cookie) never matches a page of the other.
  const version = (ownerId: string) => (client ? `${boot}-${epoch}.${ownerId}.${versions.get(ownerId) ?? 0}` : unknown());

  function barrier(): Barrier {
    let resolve!: (counted: boolean) => void;
    const promise = new Promise<boolean>((r) => (resolve = r));
    return { token: randomUUID(), promise, resolve };
  }

  function settle(b: Barrier, counted: boolean) {
    b.resolve(counted);
    if (inFlight === b) inFlight = null;
    if (!inFlight && next) send();
  }

  /** Sends the waiting catch-up: a NOTIFY to itself, which arrives after every change committed before it was sent. */
  function send() {
    const b = next!;
    next = null;
    inFlight = b;
    const listener = client;
    if (!listener) return settle(b, false);
    const timer = setTimeout(() => settle(b, false), BARRIER_TIMEOUT_MS);
    b.promise.finally(() => clearTimeout(timer)).catch(() => {});
    listener.query("SELECT pg_notify($1, $2)", [BARRIER_CHANNEL, b.token]).catch(() => settle(b, false));
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: options.databaseUrl, application_name: CHANGE_FEED_APPLICATION });
    c.on("error", () => {});
    await c.connect();
    try {
      await c.query(`LISTEN ${OWNER_CHANGES_CHANNEL}`);
      await c.query(`LISTEN ${BARRIER_CHANNEL}`);
    } catch (error) {
      await c.end().catch(() => {});
      throw error;
    }
    c.on("notification", (message) => {
      if (message.channel === OWNER_CHANGES_CHANNEL && message.payload) {
        versions.set(message.payload, ++count);
        tell(message.payload);
      }
      else if (message.channel === BARRIER_CHANNEL && inFlight && inFlight.token === message.payload) settle(inFlight, true);
    });
    c.once("end", () => lost(c));
    // Changes may have been missed while no connection listened: no version given out before matches from now on.
    epoch++;
    versions.clear();
    client = c;
    tellEveryone();
  }

  function lost(c: pg.Client) {
    if (client !== c) return;
    client = null;
    epoch++;
    if (inFlight) settle(inFlight, false);
    if (stopped) return;
    tellEveryone();
    options.log.warn("the change feed lost its database connection: reconnecting (pages are not kept meanwhile)");
    void reconnect();
  }

  async function reconnect() {
    await pRetry(connect, { retries: Infinity, minTimeout: 200, maxTimeout: 5_000, signal: stopping.signal }).catch(() => {});
    if (stopped) await client?.end().catch(() => {});
    else options.log.info("the change feed is listening again");
  }

  await connect();
  return {
    version,
    listening: () => client !== null,
    subscribe(ownerId, changed) {
      const set = listeners.get(ownerId) ?? new Set();
      set.add(changed);
      listeners.set(ownerId, set);
      return () => {
        set.delete(changed);
        if (!set.size && listeners.get(ownerId) === set) listeners.delete(ownerId);
      };
    },
    async freshVersion(ownerId) {
      // The catch-up that goes out next (after the one in flight, if any) is sent after this call: wait for it.
      const waiting = (next ??= barrier());
      if (!inFlight) send();
      return (await waiting.promise) ? version(ownerId) : unknown();
    },
    async stop() {
      stopped = true;
      stopping.abort();
      const c = client;
      client = null;
      if (inFlight) settle(inFlight, false);
      await c?.end().catch(() => {});
    },
  };
}
