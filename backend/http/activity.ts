import { Hono } from "hono";
import { requireSession, type ApiEnv } from "./context.js";
import type { ActivityRecord } from "../db/activity.js";
import type { ActivityEntry, RecordAuthor } from "../../contract/activity.js";
import { listWorkspaceActivity, recordAuthors } from "../services/activity.js";
import { iso } from "../present/values.js";

/**
 * The workspace's activity log (issue 51 item 4), for its page and the records' details pages: GET /activity (a page,
 * newest first; ?actor=, ?type=, ?before=) and GET /activity/record?type=&id= (who created the record, who changed it
 * last). Only the caller's workspace's entries: another workspace's record has none here.
 */
export const activityRoutes = new Hono<ApiEnv>();
activityRoutes.use("/activity", requireSession);
activityRoutes.use("/activity/*", requireSession);

function presentEntry(e: ActivityRecord): ActivityEntry {
  return { id: String(e.id), at: iso(e.at)!, actor: { kind: e.actorKind, name: e.actorName }, action: e.action, record: { type: e.recordType, id: e.recordId, name: e.recordName } };
}

const presentAuthor = (e: ActivityRecord | null): RecordAuthor | null => (e ? { kind: e.actorKind, name: e.actorName, at: iso(e.at)! } : null);

activityRoutes.get("/activity", async (c) => {
  const page = await listWorkspaceActivity(c.var.services, c.var.actor, c.req.query());
  return c.json({ entries: page.entries.map(presentEntry), next_before: page.nextBefore === null ? null : String(page.nextBefore), actors: page.actors });
});

activityRoutes.get("/activity/record", async (c) => {
  const { created, updated } = await recordAuthors(c.var.services, c.var.actor, c.req.query());
  return c.json({ created: presentAuthor(created), updated: presentAuthor(updated) });
});
