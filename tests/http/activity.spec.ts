import { randomUUID } from "node:crypto";
import type pg from "pg";
import { seedConnector, userIdByEmail, withDb } from "../e2e/db";
import { expect, press, test } from "./fixtures";

/**
 * Issue 51 item 4, who did what, as the server draws it for a browser without JavaScript: the Activity page (an empty
 * log says so; its filters are a plain GET form; 50 entries a page with a link to older ones; a filter that does not
 * exist is refused with a sentence), a Sync now by hand listed with who did it and shown on its run, a record's details
 * page saying who created and who last changed it, and another workspace seeing none of it.
 */

const EMPTY = "Nothing has been done in this workspace yet.";

interface Entry {
  kind: "member" | "key";
  userId?: string | null;
  keyId?: string | null;
  name: string;
  action: string;
  type: string;
  recordId: string;
  recordName: string;
}

/** Entries written as the use cases write them (backend/db/activity.ts), in this order. */
async function addEntries(client: pg.Client, workspaceId: string, entries: Entry[]) {
  for (const e of entries) {
    await client.query(
      "INSERT INTO activity (workspace_id, actor_kind, actor_user_id, actor_key_id, actor_name, action, record_type, record_id, record_name) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
      [workspaceId, e.kind, e.userId ?? null, e.keyId ?? null, e.name, e.action, e.type, e.recordId, e.recordName],
    );
  }
}

/** The log's rows as "who|what|record". */
const rowsOf = (page: { $: import("cheerio").CheerioAPI }) =>
  page
    .$('[data-testid="activity"] tbody tr')
    .toArray()
    .map((row) =>
      page
        .$(row)
        .find("td")
        .toArray()
        .slice(1)
        .map((cell) => page.$(cell).text().replace(/\s+/g, " ").trim())
        .join("|"),
    );

test("an empty log says so; a Sync now by hand is listed with who did it, and its run says who triggered it", async ({ signedIn, user }) => {
  const empty = await signedIn.open("/activity");
  expect(empty.status).toBe(200);
  expect(empty.headings()).toEqual(["Activity"]);
  expect(empty.text("main")).toContain(EMPTY);
  // The filters: a GET form with its two choices and a button, so they work without JavaScript.
  const form = empty.$('form[aria-label="Filter the activity"]');
  expect(form.attr("method")).toBe("get");
  expect(empty.options("actor")).toEqual([{ label: "Every member and API key", value: "", disabled: false }]);
  expect(empty.options("type").map((o) => o.label)).toEqual(["Every record type", "Source", "Destination", "Connector", "Transform", "Alert settings", "API key", "Member"]);
  expect(empty.hasButton("Filter")).toBe(true);

  const { connectorId } = await withDb(async (client) => seedConnector(client, await userIdByEmail(client, user.email), "Board meetings"));
  const details = await signedIn.open(`/connectors/details/${connectorId}`);
  const synced = await press(signedIn, details, 'form:has(input[name="intent"][value="sync"])', "Sync now");
  expect(synced.status).toBe(200);
  // The run history says who asked for the run.
  expect(synced.text('section[aria-labelledby="runs"] thead')).toContain("Triggered by");
  expect(synced.text('section[aria-labelledby="runs"] tbody [data-triggered-by]')).toBe(user.name);
  const runId = await withDb(async (client) => (await client.query<{ id: string }>("SELECT id FROM sync_runs WHERE connector_id = $1", [connectorId])).rows[0]!.id);
  const run = await signedIn.open(`/connectors/details/${connectorId}/runs/${runId}`);
  expect(run.text('[data-testid="run-summary"] [data-triggered-by]')).toBe(user.name);

  const log = await signedIn.open("/activity");
  expect(rowsOf(log)).toEqual([`${user.name}|Started a sync|Connector Board meetings`]);
  expect(log.links("Board meetings")).toEqual([`/connectors/details/${connectorId}`]);
  expect(log.options("actor").map((o) => o.label)).toEqual(["Every member and API key", user.name]);
});

test("filters by who and by record type; a record's page says who created and who last changed it", async ({ signedIn, user }) => {
  const keyId = randomUUID();
  const { connectorId, sourceId } = await withDb(async (client) => {
    const me = await userIdByEmail(client, user.email);
    const seeded = await seedConnector(client, me, "Support calls");
    await addEntries(client, me, [
      { kind: "member", userId: me, name: "Ada Lovelace", action: "created", type: "connector", recordId: seeded.connectorId, recordName: "Support calls" },
      { kind: "key", keyId, name: "CI", action: "updated", type: "connector", recordId: seeded.connectorId, recordName: "Support calls" },
      { kind: "key", keyId, name: "CI", action: "created", type: "source", recordId: seeded.sourceId, recordName: "Support calls meetings" },
      { kind: "member", userId: me, name: "Ada Lovelace", action: "deleted", type: "transform", recordId: randomUUID(), recordName: "Old topics" },
    ]);
    return { ...seeded, me };
  });

  const details = await signedIn.open(`/connectors/details/${connectorId}`);
  expect(details.text("dl")).toContain("Created by Ada Lovelace · Updated by the key CI");
  const source = await signedIn.open(`/sources/details/${sourceId}`);
  expect(source.text("dl")).toContain("Created by the key CI");
  expect(source.text("dl")).not.toContain("Updated by");

  const all = await signedIn.open("/activity");
  expect(rowsOf(all)).toEqual([
    "Ada Lovelace|Deleted|Transform Old topics",
    "CI API key|Created|Source Support calls meetings",
    "CI API key|Updated|Connector Support calls",
    "Ada Lovelace|Created|Connector Support calls",
  ]);
  // A deleted record has no page to link to.
  expect(all.links("Old topics")).toEqual([]);
  expect(all.options("actor").map((o) => o.label)).toEqual(["Every member and API key", "Ada Lovelace", "CI (API key)"]);

  // What the GET form sends: the choices stay chosen, and a link clears them.
  const byKey = await signedIn.open(`/activity?actor=key:${keyId}&type=connector`);
  expect(rowsOf(byKey)).toEqual(["CI API key|Updated|Connector Support calls"]);
  expect(byKey.value("actor")).toBe(`key:${keyId}`);
  expect(byKey.value("type")).toBe("connector");
  expect(byKey.links("Clear filters")).toEqual(["/activity"]);
  expect(rowsOf(await signedIn.open("/activity?type=source"))).toEqual(["CI API key|Created|Source Support calls meetings"]);
  const none = await signedIn.open("/activity?type=alert_settings");
  expect(none.text("main")).toContain("No activity matches these filters.");

  const bad = await signedIn.open("/activity?type=robots");
  expect(bad.status).toBe(400);
  expect(bad.alertText()).toContain("That filter of the activity log does not exist.");
});

test("50 entries a page, with a link to older ones and back to the newest", async ({ signedIn, user }) => {
  await withDb(async (client) => {
    const me = await userIdByEmail(client, user.email);
    await addEntries(
      client,
      me,
      Array.from({ length: 53 }, (_, i) => ({ kind: "member" as const, userId: me, name: "Ada Lovelace", action: "updated", type: "source", recordId: randomUUID(), recordName: `Source ${i}` })),
    );
  });
  const first = await signedIn.open("/activity");
  expect(rowsOf(first)).toHaveLength(50);
  expect(rowsOf(first)[0]).toBe("Ada Lovelace|Updated|Source Source 52");
  const [older] = first.links("Show older");
  expect(older).toMatch(/^\/activity\?before=\d+$/);
  const second = await signedIn.open(older!);
  expect(rowsOf(second)).toEqual(["Ada Lovelace|Updated|Source Source 2", "Ada Lovelace|Updated|Source Source 1", "Ada Lovelace|Updated|Source Source 0"]);
  expect(second.links("Show older")).toEqual([]);
  expect(second.links("Newest")).toEqual(["/activity"]);
});

test("another workspace sees none of it", async ({ signedIn, user, another }) => {
  await withDb(async (client) => {
    const me = await userIdByEmail(client, user.email);
    await addEntries(client, me, [{ kind: "member", userId: me, name: "Ada Lovelace", action: "created", type: "source", recordId: randomUUID(), recordName: "Secret source" }]);
  });
  expect(rowsOf(await signedIn.open("/activity"))).toHaveLength(1);
  const stranger = await another();
  const theirs = await stranger.open("/activity");
  expect(theirs.status).toBe(200);
  expect(theirs.text("main")).toContain(EMPTY);
  expect(theirs.html).not.toContain("Secret source");
  expect(theirs.options("actor")).toHaveLength(1);
});
