import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createUserSession, startTestBackend, waitForRun, type TestBackend } from "../support/backend.js";
import { WorkerProcesses } from "../support/workers.js";
import { CURL_FORM, expectApiError, JSON_ONLY, publicApi, READ_ONLY, recordChecks, refusal, seedApiConnector, type PublicApiCall, type RecordChecks } from "../support/public-api.js";
import { createApiKey } from "../../backend/db/api-keys.js";
import { apiScheduleSchema, pageSchema } from "../../contract/api.js";
import { transformRunSchema, transformSchema, type TransformRun } from "../../contract/transforms.js";
import type { SyncRun } from "../../contract/connectors.js";
import { cancelResponseSchema } from "../../contract/run-operations.js";
import { transformRunDetailsSchema } from "../../contract/runs.js";

/**
 * /api/v1's transform routes (list, read, create, delete, run, cancel, runs, one run, its log, schedule) through real
 * HTTP with real keys; every answer is checked against what its route declares (tests/support/public-api.ts). The
 * backend has no worker (role api) until the last describe starts one: until then a queued run stays queued, so the
 * state conflicts are not races.
 */
let t: TestBackend;
let call: PublicApiCall;
let check: RecordChecks;
let owner: { userId: string; cookie: string };
let write: string;
let read: string;
let theirs: string;
let connectorId: string;
let workers: WorkerProcesses | undefined;

beforeAll(async () => {
  t = await startTestBackend({ env: { API_RATE_LIMIT_POINTS: "100000", NODE_ENV: "test" } });
  call = publicApi(t);
  owner = await createUserSession(t, "transforms-owner@example.com");
  const other = await createUserSession(t, "transforms-other@example.com");
  write = (await createApiKey(t.handle.db, owner.userId, { name: "write", scope: "read_write", expiresAt: null })).token;
  read = (await createApiKey(t.handle.db, owner.userId, { name: "read", scope: "read", expiresAt: null })).token;
  theirs = (await createApiKey(t.handle.db, other.userId, { name: "theirs", scope: "read_write", expiresAt: null })).token;
  check = recordChecks(call, { write, read, theirs });
  connectorId = (await seedApiConnector(call, write, "Idle")).connectorId;
}, 60_000);
afterAll(async () => {
  await workers?.stopAll("SIGTERM");
  await t?.stop();
});

const body = (name: string, extra: Record<string, unknown> = {}) => ({
  template_id: "topic_modeling",
  name,
  description: "What the calls are about",
  connector_id: connectorId,
  permissions_setup: true,
  frequency: "daily",
  file_types: [".vtt"],
  ...extra,
});

async function create(name: string, extra: Record<string, unknown> = {}) {
  const created = await call(transformSchema, write, "POST", "/transforms", body(name, extra));
  expect(created.status, created.text).toBe(201);
  const runs = await call(pageSchema(transformRunSchema), write, "GET", `/transforms/${created.body.id}/runs`);
  return { transform: created.body, id: created.body.id, firstRun: runs.body.data[0]! };
}

const listed = async () => (await call(pageSchema(transformSchema), write, "GET", "/transforms?limit=200")).body.data.map((x) => x.id);

describe("transforms with no worker: create, conflicts, cancel, delete, bad bodies", () => {
  it("creates a transform from a template (201): read back, listed, seen by the app, its first run queued", async () => {
    const { transform, id, firstRun } = await create("Call topics", { inputs: { num_topics: 3 } });
    expect(transform).toMatchObject({ name: "Call topics", description: "What the calls are about", template_id: "topic_modeling", transform_type: "topic_modeling", connector_id: connectorId, frequency: "daily", file_types: [".vtt"], status: "PENDING" });
    expect(transform.inputs).toMatchObject({ num_topics: 3 });
    expect((await call(transformSchema, write, "GET", `/transforms/${id}`)).body).toMatchObject({ id, name: "Call topics", connector_name: "Idle" });
    expect(await listed()).toContain(id);
    expect((await api(t, owner.cookie, "GET", `/transforms/${id}`)).body).toMatchObject({ id, name: "Call topics", template_id: "topic_modeling" });
    expect(firstRun).toMatchObject({ transform_id: id, status: "queued", trigger: "create" });
    await check.guarded("GET", `/transforms/${id}`, `/transforms/${id}`, "Transform not found");
    await check.guarded("GET", `/transforms/${id}/runs`, `/transforms/${id}/runs`, "Transform not found");
    await check.guarded("GET", `/transforms/${id}/runs/${firstRun.id}`, `/transforms/${id}/runs`, "Transform not found");
    await check.guarded("GET", `/transforms/${id}/runs/${firstRun.id}/log`, `/transforms/${id}/runs`, "Transform not found");
    await call(null, write, "POST", `/transforms/${id}/cancel`);
  });

  it("refuses Run now while a run is queued (409), cancels it, then has nothing to cancel; runs page newest first", async () => {
    const { id, firstRun } = await create("Conflicts");
    const path = `/transforms/${id}`;
    expectApiError(await call(null, write, "POST", `${path}/run`), 409, "conflict", "A run of this transform is already queued or running.");
    await check.guarded("POST", `${path}/run`, `${path}/runs`, "Transform not found");
    await check.guarded("POST", `${path}/cancel`, `${path}/runs`, "Transform not found");
    const cancelled = await call(cancelResponseSchema, write, "POST", `${path}/cancel`);
    expect({ status: cancelled.status, body: cancelled.body }).toEqual({ status: 200, body: { status: "success", outcome: "cancelled", run_id: firstRun.id, message: "The queued run was cancelled." } });
    const details = await call(transformRunDetailsSchema, write, "GET", `${path}/runs/${firstRun.id}`);
    expect(details.body).toMatchObject({ id: firstRun.id, status: "cancelled", trigger: "create", transform_name: "Conflicts", log_kept_days: null });
    const log = await call(null, write, "GET", `${path}/runs/${firstRun.id}/log`);
    expect(log.status).toBe(200);
    expect(log.headers.get("content-type")).toMatch(/^text\/plain/);
    const nothing = await call(cancelResponseSchema, write, "POST", `${path}/cancel`);
    expect(nothing.body).toEqual({ status: "success", outcome: "none", run_id: null, message: "There is no run queued or running to cancel." });

    const again = await call(null, write, "POST", `${path}/run`);
    expect(again.status).toBe(202);
    const manual = transformRunSchema.parse(again.raw.run);
    expect(manual).toMatchObject({ transform_id: id, status: "queued", trigger: "manual" });
    const page = await call(pageSchema(transformRunSchema), write, "GET", `${path}/runs?limit=1`);
    expect(page.body.data.map((r) => r.id)).toEqual([manual.id]);
    const next = await call(pageSchema(transformRunSchema), write, "GET", `${path}/runs?limit=1&cursor=${page.body.next_cursor}`);
    expect(next.body).toMatchObject({ data: [{ id: firstRun.id }], next_cursor: null });
    expectApiError(await call(null, write, "GET", `${path}/runs?cursor=nope`), 400, "invalid_request", "The cursor is not one this API gave. Start again without it.");
    expectApiError(await call(null, write, "GET", `${path}/runs/not-a-run`), 404, "not_found", "Run not found");
    const elsewhere = await create("Elsewhere");
    expectApiError(await call(null, write, "GET", `${path}/runs/${elsewhere.firstRun.id}`), 404, "not_found", "Run not found");
    for (const open of [id, elsewhere.id]) await call(null, write, "POST", `/transforms/${open}/cancel`);
  });

  it("deletes a transform with a queued run (stopped first): then its read, runs and schedule are 404 and the list leaves it out", async () => {
    const { id, firstRun } = await create("Short lived");
    const path = `/transforms/${id}`;
    await check.guarded("DELETE", path, path, "Transform not found");
    const deleted = await call(null, write, "DELETE", path);
    expect({ status: deleted.status, body: deleted.raw }).toEqual({ status: 200, body: { id, deleted: true } });
    for (const gone of [path, `${path}/runs`, `${path}/runs/${firstRun.id}`, `${path}/runs/${firstRun.id}/log`, `${path}/schedule`]) {
      expectApiError(await call(null, write, "GET", gone), 404, "not_found", "Transform not found");
    }
    expect(await listed()).not.toContain(id);
    expect((await api(t, owner.cookie, "GET", path)).status).toBe(404);
    expectApiError(await call(null, write, "DELETE", path), 404, "not_found", "Transform not found");
    expectApiError(await call(null, write, "POST", `${path}/run`), 404, "not_found", "Transform not found");
  });

  it("PATCH renames a transform and sets its description (read back here and in the app); refuses bad bodies and a taken name", async () => {
    const { id } = await create("Before rename");
    await call(null, write, "POST", `/transforms/${id}/cancel`);
    await create("Other name");
    const path = `/transforms/${id}`;
    const renamed = await call(transformSchema, write, "PATCH", path, { name: "  After rename ", description: "New words" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: "After rename", description: "New words", template_id: "topic_modeling", connector_id: connectorId });
    expect((await call(transformSchema, write, "GET", path)).body).toMatchObject({ name: "After rename", description: "New words" });
    expect((await api(t, owner.cookie, "GET", path)).body).toMatchObject({ name: "After rename", description: "New words" });
    // Its own name again, in other case: not taken by itself. A description left out is emptied, as on create.
    expect((await call(transformSchema, write, "PATCH", path, { name: "AFTER rename" })).body).toMatchObject({ name: "AFTER rename", description: "" });
    await check.guarded("PATCH", path, path, "Transform not found", { name: "Not mine" });
    const name = refusal(400, "invalid_request", "Please enter a transform name");
    await check.refusesEach("PATCH", path, path, [
      [undefined, name],
      [{}, name],
      [{ description: "Only this" }, name],
      [{ name: "   " }, name],
      [{ name: 5 }, name],
      [{ name: "Fine", description: 42 }, refusal(400, "invalid_request", "Description must be text")],
      [{ name: " other NAME " }, refusal(409, "conflict", "This name already exists. Please choose a different name.")],
      ["{", refusal(400, "invalid_request", /JSON/)],
    ]);
    expect(await check.tryCall("PATCH", path, JSON.stringify({ name: "Sent by curl" }), CURL_FORM)).toEqual(refusal(415, "unsupported_media_type", JSON_ONLY));
  });

  it("refuses empty, partial, mistyped and conflicting create bodies with a 4xx and the spec's message; nothing is created", async () => {
    const taken = await create("Taken name");
    await call(null, write, "POST", `/transforms/${taken.id}/cancel`);
    const foreign = await seedApiConnector(call, theirs, "Not yours");
    const bad = (message: string | RegExp) => refusal(400, "invalid_request", message);
    const incomplete = bad("Please fill in all required fields: Connector and complete permissions setup");
    await check.refusesEach("POST", "/transforms", "/transforms?limit=200", [
      [undefined, bad("Template ID not available. Please go back and try again.")],
      [{}, bad("Template ID not available. Please go back and try again.")],
      [{ template_id: "topic_modeling" }, bad("Please enter a transform name")],
      [body("   "), bad("Please enter a transform name")],
      [body("Typed", { name: 5 }), bad("Please enter a transform name")],
      [body("Typed", { template_id: 5 }), bad("Template ID not available. Please go back and try again.")],
      [body("Typed", { template_id: "no_such_template" }), bad("Template not found")],
      [body("Typed", { connector_id: undefined }), incomplete],
      [body("Typed", { permissions_setup: false }), incomplete],
      [body("Typed", { connector_id: foreign.connectorId }), bad("Connector not found")],
      [body("Typed", { frequency: "weekly" }), bad("Please select a frequency")],
      [body("Typed", { file_types: [] }), bad("Please select a file type")],
      [body("Typed", { file_types: ".vtt" }), bad("Please select a file type")],
      [body("Typed", { inputs: { num_topics: 1 } }), bad('"Number of topics" must be between 2 and 20.')],
      [body("  taken NAME "), refusal(409, "conflict", "This name already exists. Please choose a different name.")],
      ["{", bad(/JSON/)],
    ]);
  });

  it("a read-only key gets 403 and a JSON body sent form-encoded (curl -d's default) 415; nothing is created", async () => {
    const before = await listed();
    expectApiError(await call(null, read, "POST", "/transforms", body("Read only")), 403, "read_only_key", READ_ONLY);
    expect(await check.tryCall("POST", "/transforms", JSON.stringify(body("Sent by curl")), CURL_FORM)).toEqual(refusal(415, "unsupported_media_type", JSON_ONLY));
    expect(await listed()).toEqual(before);
  });
});

describe("GET and PUT /transforms/{id}/schedule", () => {
  /** Weekday, hours and minutes of an instant on the clock of `timeZone`. */
  const clock = (iso: string, timeZone: string) => new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));

  it("sets a weekday cron in a zone (next run at 09:00 there on a weekday), reads it back, clears it with null; refuses bad ones", async () => {
    const { id } = await create("Scheduled");
    await call(null, write, "POST", `/transforms/${id}/cancel`);
    const path = `/transforms/${id}/schedule`;
    expect((await call(apiScheduleSchema, write, "GET", path)).body.schedule).toBeNull();
    const cron = { kind: "cron", expression: "0 9 * * 1-5", time_zone: "America/New_York" };
    const before = Date.now();
    const set = await call(apiScheduleSchema, write, "PUT", path, cron);
    expect(set.status).toBe(200);
    expect(set.body.schedule).toEqual(cron);
    const next = set.body.next_run_at!;
    expect(clock(next, "America/New_York")).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
    expect(Date.parse(next)).toBeGreaterThan(before - 1000);
    expect(Date.parse(next)).toBeLessThanOrEqual(Date.now() + 4 * 86_400_000);
    expect((await call(apiScheduleSchema, write, "GET", path)).body).toEqual(set.body);
    expect((await call(transformSchema, write, "GET", `/transforms/${id}`)).body).toMatchObject({ schedule: cron, next_run_at: next });
    expect((await api(t, owner.cookie, "GET", `/transforms/${id}`)).body).toMatchObject({ schedule: cron, next_run_at: next });

    await check.guarded("PUT", path, path, "Transform not found", { kind: "manual" });
    await check.guarded("GET", path, path, "Transform not found");
    const bad = (message: string) => refusal(400, "invalid_request", message);
    await check.refusesEach("PUT", path, path, [
      [{}, bad("Choose how it runs.")],
      [{ kind: "cron", expression: "0 9 * *", time_zone: "UTC" }, bad("This is not a valid cron expression: it needs five fields (minute, hour, day of month, month, day of week), and it has 4.")],
      [{ kind: "daily", time: "09:00" }, bad("Choose a time zone.")],
      [{ kind: "interval", every: 200, unit: "hours" }, bad("Enter at most 168 hours (a week).")],
    ]);
    const cleared = await call(apiScheduleSchema, write, "PUT", path, { kind: "frequency" });
    expect(cleared.body.schedule).toBeNull();
    expect(cleared.body.next_run_at).toEqual(expect.any(String));
    expect((await call(apiScheduleSchema, write, "GET", path)).body).toEqual(cleared.body);
  });
});

describe("with a worker", () => {
  it("a transform created over the API on a synced data-generator connector runs to success; its runs, run and log read back; Run now runs again", async () => {
    workers = new WorkerProcesses({ ...process.env, ...t.env });
    workers.start("worker");
    const synced = await seedApiConnector(call, write, "Synced", { meetingsPerDay: 4, lookbackDays: 3 });
    const sync = await call(null, write, "POST", `/connectors/${synced.connectorId}/sync`);
    expect(sync.status).toBe(202);
    const syncRun = await waitForRun<SyncRun>(t, owner.cookie, `/connectors/${synced.connectorId}`, sync.raw.run.id);
    expect(syncRun.status, syncRun.error ?? "").toBe("succeeded");

    const { id, firstRun } = await create("Synced topics", { connector_id: synced.connectorId });
    const path = `/transforms/${id}`;
    const finished = await waitForRun<TransformRun>(t, owner.cookie, path, firstRun.id);
    expect(finished.status, finished.error ?? "").toBe("succeeded");
    const runs = await call(pageSchema(transformRunSchema), write, "GET", `${path}/runs`);
    expect(runs.body.data).toHaveLength(1);
    expect(runs.body.data[0]).toMatchObject({ id: firstRun.id, status: "succeeded", trigger: "create", error: null });
    expect(runs.body.data[0]!.outputs.length).toBeGreaterThan(0);
    const details = await call(transformRunDetailsSchema, write, "GET", `${path}/runs/${firstRun.id}`);
    expect(details.body).toMatchObject({ id: firstRun.id, status: "succeeded", transform_name: "Synced topics", log_kept_days: null });
    expect(details.body.attempts.map((a) => a.outcome)).toEqual(["succeeded"]);
    expect(details.body.log.length).toBeGreaterThan(0);
    const log = await call(null, write, "GET", `${path}/runs/${firstRun.id}/log`);
    const lines = log.text.trimEnd().split("\n");
    expect(lines).toHaveLength(details.body.log.length);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d{2}-\d{2}T\S+ (INFO |WARN |ERROR) \S/);
    expect((await call(transformSchema, write, "GET", path)).body).toMatchObject({ status: "SUCCEEDED", last_run: { id: firstRun.id, status: "succeeded" } });

    const again = await call(null, write, "POST", `${path}/run`);
    expect(again.status).toBe(202);
    const rerun = await waitForRun<TransformRun>(t, owner.cookie, path, again.raw.run.id);
    expect(rerun).toMatchObject({ status: "succeeded", trigger: "manual" });
    expect((await call(pageSchema(transformRunSchema), write, "GET", `${path}/runs`)).body.data.map((r) => r.id)).toEqual([again.raw.run.id, firstRun.id]);
    const done = await call(cancelResponseSchema, write, "POST", `${path}/cancel`);
    expect(done.body).toMatchObject({ outcome: "none", run_id: null });
  }, 300_000);
});
