import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { seedTransform } from "../support/seed.js";
import { CURL_FORM, expectApiError, JSON_ONLY, publicApi, recordChecks, refusal, seedApiConnector, type PublicApiCall, type RecordChecks } from "../support/public-api.js";
import { createApiKey } from "../../backend/db/api-keys.js";
import { apiScheduleSchema, pageSchema } from "../../contract/api.js";
import { apiDestinationSchema as destinationSchema, apiSourceSchema as sourceSchema } from "../../backend/api/schemas.js";
import { connectorSchema, syncRunSchema } from "../../contract/connectors.js";
import { cancelResponseSchema } from "../../contract/run-operations.js";
import { syncRunDetailsSchema } from "../../contract/runs.js";

/**
 * /api/v1's writes to sources, destinations and connectors beyond create (update, delete, backfill, cancel, schedules),
 * through real HTTP with real keys; every answer is checked against what its route declares (tests/support/public-api.ts).
 * The backend has no worker (role api): a queued run stays queued, so the state conflicts are not races.
 */
let t: TestBackend;
let call: PublicApiCall;
let owner: { userId: string; cookie: string };
let write: string;
let read: string;
let theirs: string;
let check: RecordChecks;

beforeAll(async () => {
  t = await startTestBackend({ env: { API_RATE_LIMIT_POINTS: "100000", NODE_ENV: "test" } });
  call = publicApi(t);
  owner = await createUserSession(t, "routes-owner@example.com");
  const other = await createUserSession(t, "routes-other@example.com");
  write = (await createApiKey(t.handle.db, owner.userId, { name: "write", scope: "read_write", expiresAt: null })).token;
  read = (await createApiKey(t.handle.db, owner.userId, { name: "read", scope: "read", expiresAt: null })).token;
  theirs = (await createApiKey(t.handle.db, other.userId, { name: "theirs", scope: "read_write", expiresAt: null })).token;
  check = recordChecks(call, { write, read, theirs });
}, 60_000);
afterAll(() => t?.stop());

describe("PATCH and DELETE /sources/{id}", () => {
  it("renames a source (trimmed), seen on read-back and by the app; another user's, a missing one and a read-only key are refused", async () => {
    const { sourceId } = await seedApiConnector(call, write, "Source patch");
    const renamed = await call(sourceSchema, write, "PATCH", `/sources/${sourceId}`, { name: "  Calls  ", description: " Sales calls " });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: sourceId, name: "Calls", description: "Sales calls", integration: "datagen" });
    expect((await call(sourceSchema, write, "GET", `/sources/${sourceId}`)).body).toEqual(renamed.body);
    expect((await api(t, owner.cookie, "GET", `/sources/list-by-id/${sourceId}`)).body).toMatchObject({ name: "Calls", description: "Sales calls" });
    await check.guarded("PATCH", `/sources/${sourceId}`, `/sources/${sourceId}`, "Source not found", { name: "Hijacked" });
  });

  it("refuses empty, partial, mistyped and non-JSON bodies with a 400 and the spec's message, and changes nothing", async () => {
    const { sourceId } = await seedApiConnector(call, write, "Source bad");
    const name = refusal(400, "invalid_request", "Please enter a source name");
    await check.refusesEach("PATCH", `/sources/${sourceId}`, `/sources/${sourceId}`, [
      [undefined, name],
      [{}, name],
      [{ description: "Only this" }, name],
      [{ name: "   " }, name],
      [{ name: 42 }, name],
      [{ name: "Fine", description: 42 }, refusal(400, "invalid_request", "Description must be text")],
      ["{", refusal(400, "invalid_request", /JSON/)],
    ]);
  });

  it("deletes a source once no connector uses it: 409 before (unchanged), then gone from the read and the list", async () => {
    const { sourceId, connectorId } = await seedApiConnector(call, write, "Source delete");
    const before = await check.readBack(`/sources/${sourceId}`);
    const inUse = await call(null, write, "DELETE", `/sources/${sourceId}`);
    expectApiError(inUse, 409, "conflict", 'This source cannot be deleted because 1 connector uses it: "Source delete". Delete those connectors or move them to another source first.');
    expect(await check.readBack(`/sources/${sourceId}`)).toEqual(before);
    expect((await call(null, write, "DELETE", `/connectors/${connectorId}`)).status).toBe(200);
    await check.guarded("DELETE", `/sources/${sourceId}`, `/sources/${sourceId}`, "Source not found");
    const gone = await call(null, write, "DELETE", `/sources/${sourceId}`);
    expect(gone.status).toBe(200);
    expect(gone.raw).toEqual({ id: sourceId, deleted: true });
    expectApiError(await call(null, write, "GET", `/sources/${sourceId}`), 404, "not_found", "Source not found");
    expect((await call(pageSchema(sourceSchema), write, "GET", "/sources?limit=200")).body.data.map((s) => s.id)).not.toContain(sourceId);
    expectApiError(await call(null, write, "DELETE", `/sources/${sourceId}`), 404, "not_found", "Source not found");
  });
});

describe("PATCH and DELETE /destinations/{id}", () => {
  it("renames a destination, seen on read-back and by the app; another user's, a missing one and a read-only key are refused", async () => {
    const { destinationId } = await seedApiConnector(call, write, "Destination patch");
    const path = `/destinations/${destinationId}`;
    const renamed = await call(destinationSchema, write, "PATCH", path, { name: " Archive ", description: "Where calls land" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: destinationId, name: "Archive", description: "Where calls land", integration: "local" });
    expect((await call(destinationSchema, write, "GET", path)).body).toEqual(renamed.body);
    expect((await api(t, owner.cookie, "GET", `/destinations/list-by-id/${destinationId}`)).body).toMatchObject({ name: "Archive", description: "Where calls land" });
    await check.guarded("PATCH", path, path, "Destination not found", { name: "Hijacked" });
  });

  it("refuses empty, partial, mistyped and malformed bodies with a 4xx and the spec's message, and changes nothing", async () => {
    const { destinationId } = await seedApiConnector(call, write, "Destination bad");
    const path = `/destinations/${destinationId}`;
    const name = refusal(400, "invalid_request", "Please enter a destination name");
    await check.refusesEach("PATCH", path, path, [
      [undefined, name],
      [{}, name],
      [{ description: "Only this" }, name],
      [{ name: "" }, name],
      [{ name: 42 }, name],
      [{ name: "Fine", description: 42 }, refusal(400, "invalid_request", "Description must be text")],
      ["{", refusal(400, "invalid_request", /JSON/)],
    ]);
  });

  it("deletes a destination once no connector uses it: 409 before (unchanged), then gone from the read and the list", async () => {
    const { destinationId, connectorId } = await seedApiConnector(call, write, "Destination delete");
    const path = `/destinations/${destinationId}`;
    const before = await check.readBack(path);
    expectApiError(await call(null, write, "DELETE", path), 409, "conflict", 'This destination is used by the connector "Destination delete". Remove it from that connector (or delete it) first.');
    expect(await check.readBack(path)).toEqual(before);
    expect((await call(null, write, "DELETE", `/connectors/${connectorId}`)).status).toBe(200);
    await check.guarded("DELETE", path, path, "Destination not found");
    expect((await call(null, write, "DELETE", path)).raw).toEqual({ id: destinationId, deleted: true });
    expectApiError(await call(null, write, "GET", path), 404, "not_found", "Destination not found");
    expect((await call(pageSchema(destinationSchema), write, "GET", "/destinations?limit=200")).body.data.map((d) => d.id)).not.toContain(destinationId);
  });
});

describe("PATCH and DELETE /connectors/{id}", () => {
  it("updates every field (a second destination in place of the first), seen on read-back and by the app", async () => {
    const { connectorId, sourceId } = await seedApiConnector(call, write, "Connector patch");
    const moved = await call(destinationSchema, write, "POST", "/destinations", { name: "Second disk", integration: "local" });
    const body = { name: " Hourly calls ", description: "Every hour", source_id: sourceId, destination_ids: [moved.body.id], frequency: "Hourly", lookback_days: 14 };
    const updated = await call(connectorSchema, write, "PATCH", `/connectors/${connectorId}`, body);
    expect(updated.status).toBe(200);
    const expected = { id: connectorId, name: "Hourly calls", description: "Every hour", source_id: sourceId, destination_ids: [moved.body.id], frequency: "hourly", lookback_days: 14 };
    expect(updated.body).toMatchObject(expected);
    expect((await call(connectorSchema, write, "GET", `/connectors/${connectorId}`)).body).toMatchObject(expected);
    expect((await api(t, owner.cookie, "GET", `/connectors/list-by-id/${connectorId}`)).body).toMatchObject(expected);
    // Left out, the lookback is kept.
    const kept = await call(connectorSchema, write, "PATCH", `/connectors/${connectorId}`, { ...body, lookback_days: undefined, name: "Kept" });
    expect(kept.body).toMatchObject({ name: "Kept", lookback_days: 14 });
    await check.guarded("PATCH", `/connectors/${connectorId}`, `/connectors/${connectorId}`, "Connector not found", body);
  });

  it("refuses empty, partial, mistyped bodies and another user's source or destination with a 400, and changes nothing", async () => {
    const mine = await seedApiConnector(call, write, "Connector bad");
    const foreign = await seedApiConnector(call, theirs, "Not yours");
    const good = { name: "Fine", source_id: mine.sourceId, destination_ids: [mine.destinationId], frequency: "daily", lookback_days: 7 };
    const bad = (message: string) => refusal(400, "invalid_request", message);
    await check.refusesEach("PATCH", `/connectors/${mine.connectorId}`, `/connectors/${mine.connectorId}`, [
      [undefined, bad("Please enter a connector name")],
      [{}, bad("Please enter a connector name")],
      [{ name: "Only a name" }, bad("Please select a source")],
      [{ ...good, frequency: undefined }, bad("Please enter a frequency")],
      [{ ...good, name: ["Fine"] }, bad("Please enter a connector name")],
      [{ ...good, frequency: 5 }, bad("Please enter a frequency")],
      [{ ...good, frequency: "weekly" }, bad("Frequency must be daily or hourly")],
      [{ ...good, lookback_days: "a week" }, bad("Lookback days must be one of 1, 3, 7, 14, 30, 90")],
      [{ ...good, destination_ids: [] }, bad("Please select a destination")],
      [{ ...good, source_id: foreign.sourceId }, bad("Source not found")],
      [{ ...good, destination_ids: [foreign.destinationId] }, bad("One of the selected destinations was not found")],
      ["{", bad("Malformed JSON in request body")],
    ]);
  });

  it("deletes a connector (409 while a transform uses it, unchanged); then its read, runs and schedule are 404 and the list leaves it out", async () => {
    const { connectorId } = await seedApiConnector(call, write, "Connector delete");
    const path = `/connectors/${connectorId}`;
    const transformId = await seedTransform(t, owner.userId, connectorId, "Uses it");
    const before = await check.readBack(path);
    expectApiError(await call(null, write, "DELETE", path), 409, "conflict", 'This connector cannot be deleted because 1 transform uses it: "Uses it". Delete those transforms first.');
    expect(await check.readBack(path)).toEqual(before);
    expect((await call(null, write, "DELETE", `/transforms/${transformId}`)).status).toBe(200);
    await check.guarded("DELETE", path, path, "Connector not found");
    expect((await call(null, write, "DELETE", path)).raw).toEqual({ id: connectorId, deleted: true });
    for (const gone of [path, `${path}/runs`, `${path}/schedule`]) expectApiError(await call(null, write, "GET", gone), 404, "not_found", "Connector not found");
    expect((await call(pageSchema(connectorSchema), write, "GET", "/connectors?limit=200")).body.data.map((c) => c.id)).not.toContain(connectorId);
    expect((await api(t, owner.cookie, "GET", `/connectors/list-by-id/${connectorId}`)).status).toBe(404);
  });
});

describe("POST /connectors/{id}/backfill and /cancel", () => {
  it("queues a backfill of whole past days, refuses a second one and a sync while it is queued, and cancels it", async () => {
    const { connectorId } = await seedApiConnector(call, write, "Backfill");
    const path = `/connectors/${connectorId}`;
    const nothing = await call(cancelResponseSchema, write, "POST", `${path}/cancel`);
    expect({ status: nothing.status, body: nothing.body }).toEqual({ status: 200, body: { status: "success", outcome: "none", run_id: null, message: "There is no sync queued or running to cancel." } });
    const queued = await call(null, write, "POST", `${path}/backfill`, { from: "2025-01-01", to: "2025-01-03", time_zone: "Asia/Tokyo" });
    expect(queued.status).toBe(202);
    const run = syncRunSchema.parse(queued.raw.run);
    expect(run).toMatchObject({ connector_id: connectorId, status: "queued", trigger: "backfill", range_from: "2024-12-31T15:00:00.000Z", range_to: "2025-01-03T15:00:00.000Z" });
    const details = await call(syncRunDetailsSchema, write, "GET", `${path}/runs/${run.id}`);
    expect(details.body).toMatchObject({ id: run.id, status: "queued", trigger: "backfill", connector_name: "Backfill" });

    const open = "A sync of this connector is already queued or running. Wait for it to finish, or cancel it, then start the backfill.";
    expectApiError(await call(null, write, "POST", `${path}/backfill`, { from: "2025-02-01", to: "2025-02-02" }), 409, "conflict", open);
    expectApiError(await call(null, write, "POST", `${path}/sync`), 409, "conflict", "A sync of this connector is already queued or running.");
    expect((await call(null, write, "GET", `${path}/runs`)).raw.data.map((r: { id: string }) => r.id)).toEqual([run.id]);

    await check.guarded("POST", `${path}/cancel`, path, "Connector not found");
    const cancelled = await call(cancelResponseSchema, write, "POST", `${path}/cancel`);
    expect({ status: cancelled.status, body: cancelled.body }).toEqual({ status: 200, body: { status: "success", outcome: "cancelled", run_id: run.id, message: "The queued sync was cancelled." } });
    expect((await call(syncRunDetailsSchema, write, "GET", `${path}/runs/${run.id}`)).body.status).toBe("cancelled");
    expect((await call(cancelResponseSchema, write, "POST", `${path}/cancel`)).body.outcome).toBe("none");
    // Over, it no longer blocks a backfill.
    expect((await call(null, write, "POST", `${path}/backfill`, { from: "2025-01-01T00:00:00Z", to: "2025-01-01T12:00:00Z" })).status).toBe(202);
  });

  it("refuses bad ranges with a 400 and the rule's message, another user's connector with a 404 and a read-only key with a 403; no run is queued", async () => {
    const { connectorId } = await seedApiConnector(call, write, "Backfill bad");
    const path = `/connectors/${connectorId}`;
    await check.guarded("POST", `${path}/backfill`, `${path}/runs`, "Connector not found", { from: "2025-01-01", to: "2025-01-02" });
    const bad = (message: string | RegExp) => refusal(400, "invalid_request", message);
    await check.refusesEach("POST", `${path}/backfill`, `${path}/runs`, [
      [undefined, bad("Please choose the first day to backfill.")],
      [{}, bad("Please choose the first day to backfill.")],
      [{ from: "2025-01-01" }, bad("Please choose the last day to backfill.")],
      [{ from: "", to: "" }, bad("Please choose the first day to backfill.")],
      [{ from: 20250101, to: "2025-01-02" }, bad("Please choose the first day to backfill.")],
      [{ from: "2025-02-30", to: "2025-03-01" }, bad("From must be a date such as 2026-10-01.")],
      [{ from: "2025-01-05", to: "2025-01-01" }, bad("To must be on or after From.")],
      [{ from: "2025-01-01", to: "2999-01-01" }, bad("To cannot be in the future. Choose today or an earlier day.")],
      [{ from: "2020-01-01", to: "2022-01-01" }, bad("A backfill covers at most 366 days. Choose a later From or an earlier To.")],
      [{ from: "2025-01-01", to: "2025-01-02", time_zone: "Mars/Olympus" }, bad("The time zone is not one this server knows.")],
      ["{", bad(/JSON/)],
    ]);
    expect((await call(null, write, "GET", `${path}/runs`)).raw.data).toEqual([]);
  });
});

describe("GET and PUT /connectors/{id}/schedule", () => {
  /** Hours and minutes of an instant on the clock of `timeZone`. */
  const clock = (iso: string, timeZone: string) => new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));

  it("sets a daily schedule in a zone (next run at that time there, within a day), reads it back, goes manual (no next run) and clears it with null", async () => {
    const { connectorId } = await seedApiConnector(call, write, "Scheduled");
    const path = `/connectors/${connectorId}/schedule`;
    const first = await call(apiScheduleSchema, read, "GET", path);
    expect(first.body.schedule).toBeNull();
    expect(Date.parse(first.body.next_run_at!)).not.toBeNaN();

    const daily = { kind: "daily", time: "09:30", time_zone: "Asia/Kolkata" };
    const before = Date.now();
    const set = await call(apiScheduleSchema, write, "PUT", path, daily);
    expect(set.status).toBe(200);
    expect(set.body.schedule).toEqual(daily);
    const next = set.body.next_run_at!;
    expect(clock(next, "Asia/Kolkata")).toBe("09:30");
    expect(Date.parse(next)).toBeGreaterThan(before - 1000);
    expect(Date.parse(next)).toBeLessThanOrEqual(Date.now() + 86_400_000);
    expect((await call(apiScheduleSchema, read, "GET", path)).body).toEqual(set.body);
    expect((await call(connectorSchema, read, "GET", `/connectors/${connectorId}`)).body).toMatchObject({ schedule: daily, next_run_at: next });
    expect((await api(t, owner.cookie, "GET", `/connectors/list-by-id/${connectorId}`)).body).toMatchObject({ schedule: daily, next_run_at: next });

    const manual = await call(apiScheduleSchema, write, "PUT", path, { kind: "manual" });
    expect(manual.body).toEqual({ schedule: { kind: "manual" }, next_run_at: null });
    const cleared = await call(apiScheduleSchema, write, "PUT", path, { kind: "frequency" });
    expect(cleared.body.schedule).toBeNull();
    expect(cleared.body.next_run_at).toEqual(expect.any(String));
    expect((await call(apiScheduleSchema, write, "GET", path)).body).toEqual(cleared.body);
  });

  it("refuses bad schedules with a 400 and the form's sentence, another user's connector with a 404 and a read-only key with a 403; nothing changes", async () => {
    const { connectorId } = await seedApiConnector(call, write, "Schedule bad");
    const path = `/connectors/${connectorId}/schedule`;
    await call(apiScheduleSchema, write, "PUT", path, { kind: "interval", every: 2, unit: "hours" });
    await check.guarded("PUT", path, path, "Connector not found", { kind: "manual" });
    await check.guarded("GET", path, path, "Connector not found");
    const bad = (message: string | RegExp) => refusal(400, "invalid_request", message);
    await check.refusesEach("PUT", path, path, [
      [undefined, bad("Choose how it runs.")],
      [{}, bad("Choose how it runs.")],
      [{ kind: "weekly" }, bad("Choose how it runs.")],
      [[], bad("Send the schedule as a JSON object with its kind.")],
      [{ kind: "interval", every: 2 }, bad("Choose minutes or hours.")],
      [{ kind: "interval", every: "often", unit: "hours" }, bad("Enter a whole number.")],
      [{ kind: "interval", every: 5, unit: "minutes" }, bad("Run at most every 15 minutes.")],
      [{ kind: "daily", time: "25:00", time_zone: "UTC" }, bad("Enter a time of day as HH:MM, for example 09:30.")],
      [{ kind: "daily", time: "09:00", time_zone: "Mars/Olympus" }, bad("Choose a time zone from the list.")],
      [{ kind: "cron", expression: "* * * * *", time_zone: "UTC" }, bad("Run at most every 15 minutes.")],
      [{ kind: "cron", expression: "61 * * * *", time_zone: "UTC" }, bad("This is not a valid cron expression: the minute is 61; it goes from 0 to 59.")],
      ["{", bad(/JSON/)],
    ]);
  });
});

describe("bodies that are not JSON, or too large", () => {
  it("a JSON body sent form-encoded (curl -d's default) gets 415 on every write that takes a body, and changes nothing", async () => {
    const { sourceId, destinationId, connectorId } = await seedApiConnector(call, write, "Not JSON");
    const writes: [string, string, unknown][] = [
      ["PATCH", `/sources/${sourceId}`, { name: "Sent by curl" }],
      ["PATCH", `/destinations/${destinationId}`, { name: "Sent by curl" }],
      ["PATCH", `/connectors/${connectorId}`, { name: "Sent by curl", source_id: sourceId, destination_ids: [destinationId], frequency: "daily" }],
      ["POST", `/connectors/${connectorId}/backfill`, { from: "2025-01-01", to: "2025-01-02" }],
      ["PUT", `/connectors/${connectorId}/schedule`, { kind: "manual" }],
    ];
    const before = await Promise.all([`/sources/${sourceId}`, `/destinations/${destinationId}`, `/connectors/${connectorId}`, `/connectors/${connectorId}/runs`].map(check.readBack));
    const seen = [];
    for (const [method, route, body] of writes) seen.push({ write: `${method} ${route}`, ...(await check.tryCall(method, route, JSON.stringify(body), CURL_FORM)) });
    expect(seen).toEqual(writes.map(([method, route]) => ({ write: `${method} ${route}`, ...refusal(415, "unsupported_media_type", JSON_ONLY) })));
    expect(await Promise.all([`/sources/${sourceId}`, `/destinations/${destinationId}`, `/connectors/${connectorId}`, `/connectors/${connectorId}/runs`].map(check.readBack))).toEqual(before);
  });

  it("a body over the 64 KB limit gets 413, a status its route declares", async () => {
    const { sourceId } = await seedApiConnector(call, write, "Too large");
    const seen = await check.tryCall("PATCH", `/sources/${sourceId}`, { name: "Large", description: "x".repeat(70_000) });
    expect(seen).toEqual(refusal(413, "payload_too_large", "The request body is too large: at most 64 KB is accepted here."));
    expect((await check.readBack(`/sources/${sourceId}`)).name).toBe("Too large source");
  });
});
