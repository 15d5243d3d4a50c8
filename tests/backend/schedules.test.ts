import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CronExpressionParser } from "cron-parser";
import { createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";
import { SCHEDULE_MESSAGES as M } from "../../contract/schedules.js";

/**
 * PUT /connectors/:id/schedule, PUT /transforms/:id/schedule and their previews, over real HTTP against a real
 * backend and Postgres: a schedule is set, shown in the record's JSON with its next run, refused with a sentence at
 * its field when bad, and as absent as a missing record for another user.
 */

let t: TestBackend;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };
let connectorId: string;
let transformId: string;

function send(method: string, path: string, cookie: string, body: unknown) {
  return fetch(`${t.url}${path}`, { method, headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
}
const put = (path: string, cookie: string, body: unknown) => send("PUT", path, cookie, body);
const post = (path: string, cookie: string, body: unknown) => send("POST", path, cookie, body);

beforeAll(async () => {
  t = await startTestBackend();
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
  bob = await createUserSession(t, "bob@example.com", "Bob Example");
  const source = await t.db.query<{ id: string }>(
    "INSERT INTO sources (owner_id, name, integration_name, integration_label, metadata) VALUES ($1, 'Gen', 'datagen', 'Data generator', '{\"format\":\"zoom\"}') RETURNING id",
    [alice.userId],
  );
  const connector = await t.db.query<{ id: string }>("INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days) VALUES ($1, 'Nightly', $2, 'daily', 1) RETURNING id", [
    alice.userId,
    source.rows[0]!.id,
  ]);
  connectorId = connector.rows[0]!.id;
  const transform = await t.db.query<{ id: string }>(
    "INSERT INTO transforms (owner_id, name, transform_type, template_id, connector_id, frequency) VALUES ($1, 'Topics', 'topic_modeling', 'topic-modeling', $2, 'hourly') RETURNING id",
    [alice.userId, connectorId],
  );
  transformId = transform.rows[0]!.id;
});
afterAll(async () => {
  await t?.stop();
});

describe.each([
  ["connectors", () => connectorId, () => `/connectors/list-by-id/${connectorId}`, "Connector not found"],
  ["transforms", () => transformId, () => `/transforms/${transformId}`, "Transform not found"],
] as const)("PUT /%s/:id/schedule", (base, id, detailsPath, notFound) => {
  it("sets a cron schedule in a zone, shown in the record's JSON with the next run cron-parser gives", async () => {
    const schedule = { kind: "cron", expression: "0 9 * * 1-5", time_zone: "America/New_York" };
    const before = new Date();
    const response = await put(`/${base}/${id()}/schedule`, alice.cookie, schedule);
    expect(response.status).toBe(200);
    const saved = (await response.json()) as { schedule: unknown; next_run_at: string; message: string };
    expect(saved.message).toBe("Schedule saved");
    expect(saved.schedule).toEqual(schedule);
    const expected = CronExpressionParser.parse("0 9 * * 1-5", { tz: "America/New_York", currentDate: before }).next().toDate().toISOString();
    expect(saved.next_run_at).toBe(expected);
    const details = (await (await get(t, detailsPath(), alice.cookie)).json()) as { schedule: unknown; next_run_at: string };
    expect(details.schedule).toEqual(schedule);
    expect(details.next_run_at).toBe(expected);
    // Stored with the moment it was set, which the JSON does not carry.
    const table = base === "connectors" ? "connectors" : "transforms";
    const { rows } = await t.db.query<{ schedule: { since: string } }>(`SELECT schedule FROM ${table} WHERE id = $1`, [id()]);
    expect(new Date(rows[0]!.schedule.since).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });

  it("sets manual only (no next run), and goes back to the frequency's slot", async () => {
    const manual = (await (await put(`/${base}/${id()}/schedule`, alice.cookie, { kind: "manual" })).json()) as { schedule: unknown; next_run_at: string | null };
    expect(manual).toMatchObject({ schedule: { kind: "manual" }, next_run_at: null });
    const back = (await (await put(`/${base}/${id()}/schedule`, alice.cookie, { kind: "frequency" })).json()) as { schedule: unknown; next_run_at: string | null };
    expect(back.schedule).toBeNull();
    expect(back.next_run_at).not.toBeNull();
    const { rows } = await t.db.query(`SELECT schedule FROM ${base} WHERE id = $1`, [id()]);
    expect(rows[0]!.schedule).toBeNull();
  });

  it.each([
    [{ kind: "interval", every: 5, unit: "minutes" }, "every", "Run at most every 15 minutes."],
    [{ kind: "cron", expression: "61 * * * *", time_zone: "UTC" }, "expression", /^This is not a valid cron expression: /],
    [{ kind: "cron", expression: "*/5 * * * *", time_zone: "UTC" }, "expression", "Run at most every 15 minutes."],
    [{ kind: "cron", expression: "0 9 * * *" }, "time_zone", "Choose a time zone."],
    [{ kind: "daily", time: "25:00", time_zone: "UTC" }, "time", M.timeInvalid],
    [{ kind: "daily", time: "09:00", time_zone: "Mars/Olympus" }, "time_zone", M.timeZoneInvalid],
    [{ kind: "weekly" }, "kind", "Choose how it runs."],
    [[], "kind", M.notAnObject],
  ])("refuses %j with a 400, its sentence and its field, and keeps the schedule it had", async (body, field, message) => {
    await put(`/${base}/${id()}/schedule`, alice.cookie, { kind: "interval", every: 2, unit: "hours" });
    const response = await put(`/${base}/${id()}/schedule`, alice.cookie, body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { message: string; field: string };
    expect(answer.field).toBe(field);
    expect(answer.message).toEqual(typeof message === "string" ? message : expect.stringMatching(message));
    const details = (await (await get(t, detailsPath(), alice.cookie)).json()) as { schedule: unknown };
    expect(details.schedule).toEqual({ kind: "interval", every: 2, unit: "hours" });
  });

  it("refuses a body that is not JSON with a 415", async () => {
    const response = await fetch(`${t.url}/${base}/${id()}/schedule`, { method: "PUT", headers: { cookie: alice.cookie, "content-type": "text/plain" }, body: "manual" });
    expect(response.status).toBe(415);
  });

  it("is a 404 for another user's record and for one that does not exist, and changes nothing", async () => {
    await put(`/${base}/${id()}/schedule`, alice.cookie, { kind: "manual" });
    for (const path of [`/${base}/${id()}/schedule`, `/${base}/00000000-0000-4000-8000-000000000000/schedule`, `/${base}/not-an-id/schedule`]) {
      const response = await put(path, bob.cookie, { kind: "interval", every: 30, unit: "minutes" });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { message: string }).message).toBe(notFound);
    }
    const preview = await post(`/${base}/${id()}/schedule/preview`, bob.cookie, { kind: "manual" });
    expect(preview.status).toBe(404);
    const details = (await (await get(t, detailsPath(), alice.cookie)).json()) as { schedule: unknown };
    expect(details.schedule).toEqual({ kind: "manual" });
    expect((await put(`/${base}/${id()}/schedule`, "", { kind: "manual" })).status).toBe(401);
  });

  it("previews the next run of a schedule without saving it", async () => {
    await put(`/${base}/${id()}/schedule`, alice.cookie, { kind: "manual" });
    const before = new Date();
    const response = await post(`/${base}/${id()}/schedule/preview`, alice.cookie, { kind: "daily", time: "07:15", time_zone: "Europe/Berlin" });
    expect(response.status).toBe(200);
    const expected = CronExpressionParser.parse("15 7 * * *", { tz: "Europe/Berlin", currentDate: before }).next().toDate().toISOString();
    expect(await response.json()).toEqual({ next_run_at: expected });
    expect(await (await post(`/${base}/${id()}/schedule/preview`, alice.cookie, { kind: "manual" })).json()).toEqual({ next_run_at: null });
    const bad = await post(`/${base}/${id()}/schedule/preview`, alice.cookie, { kind: "cron", expression: "nope", time_zone: "UTC" });
    expect(bad.status).toBe(400);
    const details = (await (await get(t, detailsPath(), alice.cookie)).json()) as { schedule: unknown };
    expect(details.schedule).toEqual({ kind: "manual" });
  });
});

describe("next runs in the lists", () => {
  it("a paused connector, and its transforms, have no next run; manual only has none either", async () => {
    await put(`/connectors/${connectorId}/schedule`, alice.cookie, { kind: "interval", every: 30, unit: "minutes" });
    await put(`/transforms/${transformId}/schedule`, alice.cookie, { kind: "frequency" });
    const list = async () => ({
      connector: ((await (await get(t, "/connectors/list", alice.cookie)).json()) as { next_run_at: string | null }[])[0]!,
      transform: ((await (await get(t, "/transforms/list", alice.cookie)).json()) as { next_run_at: string | null }[])[0]!,
    });
    const active = await list();
    expect(new Date(active.connector.next_run_at!).getTime() - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(active.transform.next_run_at).not.toBeNull();
    expect((await post(`/connectors/${connectorId}/pause`, alice.cookie, {})).status).toBe(200);
    const paused = await list();
    expect(paused.connector.next_run_at).toBeNull();
    expect(paused.transform.next_run_at).toBeNull();
    await post(`/connectors/${connectorId}/resume`, alice.cookie, {});
    await put(`/connectors/${connectorId}/schedule`, alice.cookie, { kind: "manual" });
    expect((await list()).connector.next_run_at).toBeNull();
  });
});
