import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { streamSSE } from "hono/streaming";
import { requireSession, type ApiEnv } from "./context.js";
import { findSessionUser } from "../auth/sessions.js";
import { SESSION_COOKIE } from "../../contract/auth.js";

export const runsRoutes = new Hono<ApiEnv>();
runsRoutes.use("/runs/*", requireSession);

/**
 * GET /runs/version: the caller's data version, which every write of their runs (a status, the records so far) and
 * records moves (backend/db/changes.ts). The web server's event stream (app/routes/events.runs.tsx) asks about once a
 * second and tells the browser when it changed: one session lookup and a catch-up on the change feed (shared by every
 * caller waiting at that moment), nothing else read and nothing written.
 */
runsRoutes.get("/runs/version", async (c) => c.json({ version: await c.var.services.changes.freshVersion(c.var.actor.ownerId) }));

/** Changes closer together than this go out as one event (a sync writes its progress about once a second). */
const EVENT_GAP_MS = 250;

/**
 * GET /runs/events: server-sent events for the caller's runs, pushed from the change feed (no polling, nothing read
 * per change). A `runs` event carries the data version at once, then whenever it moves. Every
 * RUN_EVENTS_SESSION_CHECK_SECONDS the session is checked (the stream ends once it is over) and a comment keeps the
 * connection alive. The web server relays one such stream per page following a run (app/routes/events.runs.tsx).
 */
runsRoutes.get("/runs/events", (c) => {
  const { changes, db, config } = c.var.services;
  const { ownerId } = c.var.actor;
  const token = getCookie(c, SESSION_COOKIE)!;
  const checkMs = config.RUN_EVENTS_SESSION_CHECK_SECONDS * 1000;
  c.header("Cache-Control", "no-cache, no-transform");
  return streamSSE(c, async (stream) => {
    let changed = true;
    let wake: (() => void) | undefined;
    const unsubscribe = changes.subscribe(ownerId, () => {
      changed = true;
      wake?.();
    });
    stream.onAbort(() => wake?.());
    let checked = Date.now();
    try {
      while (!stream.aborted && !stream.closed) {
        if (changed) {
          changed = false;
          await stream.writeSSE({ event: "runs", data: changes.version(ownerId) });
          await stream.sleep(EVENT_GAP_MS);
          continue;
        }
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, Math.max(0, checked + checkMs - Date.now()));
        });
        clearTimeout(timer);
        wake = undefined;
        if (Date.now() - checked >= checkMs) {
          if (!(await findSessionUser(db, token))) break;
          checked = Date.now();
          await stream.write(": still here\n\n");
        }
      }
    } finally {
      unsubscribe();
    }
  });
});
