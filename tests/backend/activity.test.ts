import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { seedDatagenConnector, seedTransform } from "../support/seed.js";
import { datagenSourceBody, publicApi, type PublicApiCall } from "../support/public-api.js";
import { createApiKey } from "../../backend/db/api-keys.js";
import { pruneHistory } from "../../backend/db/history.js";
import { enqueueDueRuns } from "../../backend/sync/index.js";
import { startTestQueue } from "../support/queue.js";
import type { ActivityEntry, ActivityPage, RecordAuthors } from "../../contract/activity.js";

/**
 * Issue 51 item 4, who did what: every write and every manual sync, backfill, cancel or run records one entry with who
 * did it (a member by name, an API key by its name), over the real API on a real Postgres; the log's filters, its
 * workspace's walls, its pruning with run history; runs that say who asked for them; a record's "Created by/Updated by".
 */
let t: TestBackend;
let ada: { userId: string; cookie: string };
let ben: { userId: string; cookie: string };
let call: PublicApiCall;
let adaKey: string;
let adaKeyId: string;

beforeAll(async () => {
  t = await startTestBackend();
  ada = await createUserSession(t, "ada-activity@example.com", "Ada Lovelace");
  ben = await createUserSession(t, "ben-activity@example.com", "Ben Other");
  const made = await createApiKey(t.handle.db, ada.userId, { name: "CI", scope: "read_write", expiresAt: null, createdBy: ada.userId });
  adaKey = made.token;
  adaKeyId = made.key.id;
  call = publicApi(t);
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

async function log(cookie: string, query = ""): Promise<ActivityPage> {
  const answer = await api(t, cookie, "GET", `/activity${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as ActivityPage;
}

/** The entries about one record, oldest first, as "who|kind|action". */
async function entriesOf(cookie: string, recordId: string): Promise<string[]> {
  const page = await log(cookie);
  return page.entries
    .filter((e) => e.record.id === recordId)
    .reverse()
    .map((e) => `${e.actor.name}|${e.actor.kind}|${e.action}`);
}

describe("a member's writes through the app", () => {
  it("records one entry per write, sync, backfill and cancel, with the member's name and the record", async () => {
    const seeded = await seedDatagenConnector(t, ada.cookie, { name: "Sales calls" });
    const member = "Ada Lovelace|member";
    expect(await entriesOf(ada.cookie, seeded.sourceId)).toEqual([`${member}|created`]);
    expect(await entriesOf(ada.cookie, seeded.destinationId)).toEqual([`${member}|created`]);
    expect(await entriesOf(ada.cookie, seeded.connectorId)).toEqual([`${member}|created`]);

    const sync = await api(t, ada.cookie, "POST", `/connectors/${seeded.connectorId}/sync`);
    expect(sync.status).toBe(202);
    // A refused sync (one is already queued) records nothing.
    expect((await api(t, ada.cookie, "POST", `/connectors/${seeded.connectorId}/sync`)).status).toBe(409);
    expect((await api(t, ada.cookie, "POST", `/connectors/${seeded.connectorId}/cancel`)).status).toBe(200);
    // Nothing left to cancel: not another act.
    expect((await api(t, ada.cookie, "POST", `/connectors/${seeded.connectorId}/cancel`)).status).toBe(200);
    expect((await api(t, ada.cookie, "POST", `/connectors/${seeded.connectorId}/backfill`, { from: "2026-11-01", to: "2026-11-02" })).status).toBe(202);
    expect((await api(t, ada.cookie, "POST", `/connectors/${seeded.connectorId}/cancel`)).status).toBe(200);
    expect((await api(t, ada.cookie, "POST", `/connectors/${seeded.connectorId}/pause`)).status).toBe(200);
    expect((await api(t, ada.cookie, "POST", `/connectors/${seeded.connectorId}/resume`)).status).toBe(200);
    expect((await api(t, ada.cookie, "PUT", `/connectors/${seeded.connectorId}/schedule`, { kind: "manual" })).status).toBe(200);
    expect((await api(t, ada.cookie, "PUT", `/sources/update/${seeded.sourceId}`, { name: "Sales calls source (renamed)", description: "" })).status).toBe(200);

    expect(await entriesOf(ada.cookie, seeded.connectorId)).toEqual([
      `${member}|created`,
      `${member}|synced`,
      `${member}|cancelled`,
      `${member}|backfilled`,
      `${member}|cancelled`,
      `${member}|paused`,
      `${member}|resumed`,
      `${member}|schedule_changed`,
    ]);
    const renamed = (await log(ada.cookie)).entries.find((e) => e.record.id === seeded.sourceId && e.action === "updated")!;
    expect(renamed.record).toEqual({ type: "source", id: seeded.sourceId, name: "Sales calls source (renamed)" });

    // The run says who asked for it.
    const runs = await api(t, ada.cookie, "GET", `/connectors/${seeded.connectorId}/runs`);
    const byHand = runs.body.runs.find((r: { id: string }) => r.id === sync.body.run.id);
    expect(byHand).toMatchObject({ trigger: "manual", triggered_by: "Ada Lovelace", triggered_via: "member" });
    const details = await api(t, ada.cookie, "GET", `/connectors/${seeded.connectorId}/runs/${sync.body.run.id}`);
    expect(details.body.run).toMatchObject({ triggered_by: "Ada Lovelace", triggered_via: "member" });
    expect(runs.body.runs.map((r: { trigger: string; triggered_by: string }) => `${r.trigger}:${r.triggered_by}`)).toEqual(["backfill:Ada Lovelace", "manual:Ada Lovelace"]);
  });

  it("records alert settings and API keys", async () => {
    const settings = { email: "", webhook_url: "", warn_after: 3, pause_after: 10 };
    expect((await api(t, ada.cookie, "PUT", "/alerts/settings", settings)).status).toBe(200);
    expect((await api(t, ada.cookie, "PUT", "/alerts/settings", { ...settings, warn_after: 4 })).status).toBe(200);
    expect((await api(t, ada.cookie, "POST", "/alerts/signing-secret/roll", {})).status).toBe(200);
    const key = await api(t, ada.cookie, "POST", "/api-keys", { name: "Nightly report", scope: "read" });
    expect(key.status).toBe(201);
    expect((await api(t, ada.cookie, "POST", `/api-keys/${key.body.key.id}/revoke`, {})).status).toBe(200);
    // Revoking it again changes nothing: no second entry.
    expect((await api(t, ada.cookie, "POST", `/api-keys/${key.body.key.id}/revoke`, {})).status).toBe(200);

    const page = await log(ada.cookie, "?type=alert_settings");
    expect(page.entries.map((e) => e.action)).toEqual(["signing_secret_rolled", "updated", "created"]);
    expect(page.entries.every((e) => e.actor.name === "Ada Lovelace" && e.record.type === "alert_settings")).toBe(true);
    expect(await entriesOf(ada.cookie, key.body.key.id)).toEqual(["Ada Lovelace|member|created", "Ada Lovelace|member|revoked"]);
    expect((await log(ada.cookie)).entries.find((e) => e.record.id === key.body.key.id)!.record.name).toBe("Nightly report");
  });
});

describe("an API key's writes through /api/v1", () => {
  it("records each with the key's name, and its runs say the key asked for them", async () => {
    const source = await call(null, adaKey, "POST", "/sources", datagenSourceBody("Key source"));
    expect(source.status, source.text).toBe(201);
    const sourceId = source.raw.id as string;
    expect((await call(null, adaKey, "PATCH", `/sources/${sourceId}`, { name: "Key source 2", description: "" })).status).toBe(200);
    const destination = await call(null, adaKey, "POST", "/destinations", { name: "Key disk", integration: "local", settings: { folder_name: "key-disk" } });
    expect(destination.status, destination.text).toBe(201);
    const destinationId = destination.raw.id as string;
    const connector = await call(null, adaKey, "POST", "/connectors", {
      name: "Key connector",
      source_id: sourceId,
      destination_ids: [destinationId],
      frequency: "daily",
      lookback_days: 3,
      first_sync: false,
    });
    expect(connector.status, connector.text).toBe(201);
    const connectorId = connector.raw.id as string;
    const sync = await call(null, adaKey, "POST", `/connectors/${connectorId}/sync`);
    expect(sync.status, sync.text).toBe(202);
    expect((await call(null, adaKey, "POST", `/connectors/${connectorId}/cancel`)).status).toBe(200);

    const transformId = await seedTransform(t, ada.userId, connectorId, "Key topics");
    expect((await call(null, adaKey, "PATCH", `/transforms/${transformId}`, { name: "Key topics 2", description: "" })).status).toBe(200);
    const run = await call(null, adaKey, "POST", `/transforms/${transformId}/run`);
    expect(run.status, run.text).toBe(202);
    expect((await call(null, adaKey, "POST", `/transforms/${transformId}/cancel`)).status).toBe(200);
    expect((await call(null, adaKey, "DELETE", `/transforms/${transformId}`)).status).toBe(200);

    const key = "CI|key";
    expect(await entriesOf(ada.cookie, sourceId)).toEqual([`${key}|created`, `${key}|updated`]);
    expect(await entriesOf(ada.cookie, destinationId)).toEqual([`${key}|created`]);
    expect(await entriesOf(ada.cookie, connectorId)).toEqual([`${key}|created`, `${key}|synced`, `${key}|cancelled`]);
    expect(await entriesOf(ada.cookie, transformId)).toEqual([`${key}|updated`, `${key}|ran`, `${key}|cancelled`, `${key}|deleted`]);
    const deleted = (await log(ada.cookie)).entries.find((e) => e.record.id === transformId && e.action === "deleted")!;
    expect(deleted.record).toEqual({ type: "transform", id: transformId, name: "Key topics 2" });

    const runs = await api(t, ada.cookie, "GET", `/connectors/${connectorId}/runs`);
    expect(runs.body.runs[0]).toMatchObject({ id: sync.raw.run.id, trigger: "manual", triggered_by: "CI", triggered_via: "key" });

    // Deleting through the key: one entry, with the record's last name.
    expect((await call(null, adaKey, "DELETE", `/connectors/${connectorId}`)).status).toBe(200);
    expect((await entriesOf(ada.cookie, connectorId)).at(-1)).toBe(`${key}|deleted`);
  });
});

describe("the log", () => {
  it("filters by who (a member or a key) and by record type, and pages newest first", async () => {
    const all = await log(ada.cookie);
    expect(all.actors).toEqual([
      { value: `member:${ada.userId}`, kind: "member", name: "Ada Lovelace" },
      { value: `key:${adaKeyId}`, kind: "key", name: "CI" },
    ]);
    const byKey = await log(ada.cookie, `?actor=key:${adaKeyId}`);
    expect(byKey.entries.length).toBeGreaterThan(5);
    expect(byKey.entries.every((e) => e.actor.kind === "key" && e.actor.name === "CI")).toBe(true);
    const byAda = await log(ada.cookie, `?actor=member:${ada.userId}`);
    expect(byAda.entries.every((e) => e.actor.kind === "member")).toBe(true);
    expect(byAda.entries.length + byKey.entries.length).toBe(all.entries.length);
    const transforms = await log(ada.cookie, `?actor=key:${adaKeyId}&type=transform`);
    expect(transforms.entries.map((e) => e.action)).toEqual(["deleted", "cancelled", "ran", "updated"]);
    expect((await log(ada.cookie, "?type=destination")).entries.every((e) => e.record.type === "destination")).toBe(true);

    // Newest first, ids descending; a bad filter is refused with a sentence.
    const ids = all.entries.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const bad = await api(t, ada.cookie, "GET", "/activity?type=robots");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("That filter of the activity log does not exist.");
    expect((await api(t, ada.cookie, "GET", "/activity?actor=someone")).status).toBe(400);
  });

  it("pages 50 at a time with next_before", async () => {
    for (let i = 0; i < 55; i++) await t.db.query("INSERT INTO activity (workspace_id, actor_kind, actor_user_id, actor_name, action, record_type, record_id, record_name) VALUES ($1, 'member', $1, 'Ben Other', 'updated', 'source', $2, 'Page')", [ben.userId, `page-${i}`]);
    const first = await log(ben.cookie);
    expect(first.entries).toHaveLength(50);
    expect(first.next_before).toBe(first.entries.at(-1)!.id);
    const second = await log(ben.cookie, `?before=${first.next_before}`);
    expect(second.entries.map((e) => e.record.id)).toEqual(["page-4", "page-3", "page-2", "page-1", "page-0"]);
    expect(second.next_before).toBeNull();
    await t.db.query("DELETE FROM activity WHERE workspace_id = $1", [ben.userId]);
  });

  it("another workspace sees none of it", async () => {
    const bens = await log(ben.cookie);
    expect(bens).toEqual({ entries: [], next_before: null, actors: [] });
    expect((await log(ben.cookie, `?actor=member:${ada.userId}`)).entries).toEqual([]);
    expect((await log(ben.cookie, `?actor=key:${adaKeyId}`)).entries).toEqual([]);
    const adas: ActivityEntry[] = (await log(ada.cookie)).entries;
    const sourceId = adas.find((e) => e.record.type === "source")!.record.id!;
    const authors = await api(t, ben.cookie, "GET", `/activity/record?type=source&id=${sourceId}`);
    expect(authors.body).toEqual({ created: null, updated: null });
    // Without a session: nothing.
    expect((await api(t, undefined, "GET", "/activity")).status).toBe(401);
  });
});

describe("a record's authors and runs' triggers", () => {
  it("says who created a record and who changed it last", async () => {
    const seeded = await seedDatagenConnector(t, ada.cookie, { name: "Authored" });
    const before = await api(t, ada.cookie, "GET", `/activity/record?type=connector&id=${seeded.connectorId}`);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ created: { kind: "member", name: "Ada Lovelace" }, updated: null });
    expect((await call(null, adaKey, "PATCH", `/connectors/${seeded.connectorId}`, { name: "Authored 2", source_id: seeded.sourceId, destination_ids: [seeded.destinationId], frequency: "daily" })).status).toBe(200);
    const after = (await api(t, ada.cookie, "GET", `/activity/record?type=connector&id=${seeded.connectorId}`)).body as RecordAuthors;
    expect(after).toMatchObject({ created: { kind: "member", name: "Ada Lovelace" }, updated: { kind: "key", name: "CI" } });
    expect(Date.parse(after.updated!.at)).toBeGreaterThanOrEqual(Date.parse(after.created!.at));
    // A sync is not a change of the record.
    expect((await api(t, ada.cookie, "POST", `/connectors/${seeded.connectorId}/sync`)).status).toBe(202);
    expect((await api(t, ada.cookie, "GET", `/activity/record?type=connector&id=${seeded.connectorId}`)).body.updated).toMatchObject({ kind: "key", name: "CI" });
    expect((await api(t, ada.cookie, "GET", `/activity/record?type=robot&id=x`)).status).toBe(400);
  });

  it("a scheduled run has no one who triggered it", async () => {
    const seeded = await seedDatagenConnector(t, ben.cookie, { name: "Scheduled", frequency: "hourly" });
    await t.db.query("UPDATE connectors SET created_at = now() - interval '2 hours' WHERE id = $1", [seeded.connectorId]);
    const { boss, queue } = await startTestQueue(t.databaseUrl);
    try {
      await enqueueDueRuns(t.handle.db, queue);
    } finally {
      await boss.stop({ graceful: false });
    }
    const runs = await api(t, ben.cookie, "GET", `/connectors/${seeded.connectorId}/runs`);
    expect(runs.body.runs).toHaveLength(1);
    expect(runs.body.runs[0]).toMatchObject({ trigger: "schedule", triggered_by: null, triggered_via: null });
    // And nothing of it in the log.
    expect((await entriesOf(ben.cookie, seeded.connectorId)).map((e) => e.split("|")[2])).toEqual(["created"]);
  });
});

describe("pruning", () => {
  it("deletes entries older than the run history's retention, and keeps newer ones", async () => {
    const { rows } = await t.db.query<{ n: string }>("SELECT count(*) AS n FROM activity");
    const kept = Number(rows[0]!.n);
    await t.db.query(
      "INSERT INTO activity (workspace_id, at, actor_kind, actor_user_id, actor_name, action, record_type, record_id, record_name) VALUES ($1, now() - interval '91 days', 'member', $1, 'Ada Lovelace', 'updated', 'source', 'old', 'Old'), ($1, now() - interval '89 days', 'member', $1, 'Ada Lovelace', 'updated', 'source', 'recent', 'Recent')",
      [ada.userId],
    );
    const pruned = await pruneHistory(t.handle.db, { runDays: 90, logDays: 30 });
    expect(pruned.activity).toBe(1);
    const left = await t.db.query<{ record_id: string }>("SELECT record_id FROM activity WHERE record_id IN ('old', 'recent')");
    expect(left.rows.map((r) => r.record_id)).toEqual(["recent"]);
    expect(Number((await t.db.query<{ n: string }>("SELECT count(*) AS n FROM activity")).rows[0]!.n)).toBe(kept + 1);
  });
});
