import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";
import { CONNECTOR_MESSAGES as M, LOOKBACK_OPTIONS } from "../../contract/connectors.js";

let t: TestBackend;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };

function send(method: string, path: string, cookie: string | undefined, body?: unknown, raw?: string) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (body !== undefined || raw !== undefined) headers["content-type"] = "application/json";
  return fetch(`${t.url}${path}`, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
}
const post = (path: string, cookie: string | undefined, body?: unknown) => send("POST", path, cookie, body ?? {});
const put = (path: string, cookie: string | undefined, body?: unknown) => send("PUT", path, cookie, body ?? {});
const del = (path: string, cookie: string | undefined) => send("DELETE", path, cookie);

async function expectMessage(response: Response, status: number, message: string | RegExp) {
  const body = (await response.json()) as { message: string };
  expect({ status: response.status, message: body.message }).toEqual({ status, message: typeof message === "string" ? message : expect.stringMatching(message) });
}

async function datagenSource(cookie: string, format: "zoom" | "gong" = "zoom", name = "Demo data"): Promise<{ id: string }> {
  const credential = await (await post("/externalauth/datagen/callback", cookie)).json();
  const response = await post("/sources/create", cookie, {
    name,
    credentialId: credential.credential_id,
    integration_name: "datagen",
    integration_label: "Data Generator",
    source_metadata: { company: "Acme", format },
  });
  expect(response.status).toBe(201);
  return response.json();
}

async function localDestination(cookie: string, name = "Disk"): Promise<{ id: string; config: { folder: string } }> {
  const response = await post("/destinations/create", cookie, { name, integration_name: "local" });
  expect(response.status).toBe(201);
  return ((await response.json()) as { destination: { id: string; config: { folder: string } } }).destination;
}

let source: { id: string };
let gongSource: { id: string };
let disk: { id: string };
let disk2: { id: string };
const valid = () => ({ name: "  Nightly  ", description: "  all meetings ", frequency: " Daily ", source_id: source.id, destination_ids: [disk.id], lookback_days: 7 });

beforeAll(async () => {
  t = await startTestBackend();
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
  bob = await createUserSession(t, "bob@example.com", "Bob Example");
  source = await datagenSource(alice.cookie, "zoom");
  gongSource = await datagenSource(alice.cookie, "gong", "Gong data");
  disk = await localDestination(alice.cookie);
  disk2 = await localDestination(alice.cookie, "Disk two");
});
afterAll(async () => {
  await t?.stop();
});

describe("lookups", () => {
  it("GET /connectors/lookback-options: value/label, first is the default", async () => {
    const response = await get(t, "/connectors/lookback-options", alice.cookie);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe("success");
    expect(body.lookback_options).toEqual(LOOKBACK_OPTIONS);
    expect(body.lookback_options[0]).toEqual({ value: 1, label: "1 day" });
  });

  it("GET /integrations/{id}/compatible-platforms: per integration, narrowed by source", async () => {
    const zoom = await (await get(t, "/integrations/zoom/compatible-platforms", alice.cookie)).json();
    expect(zoom).toMatchObject({ status: "success", platforms: ["zoom"] });
    const datagen = await (await get(t, "/integrations/datagen/compatible-platforms", alice.cookie)).json();
    expect(datagen.platforms).toEqual(["zoom", "gong"]);
    const mine = await (await get(t, `/integrations/datagen/compatible-platforms?source_id=${gongSource.id}`, alice.cookie)).json();
    expect(mine.platforms).toEqual(["gong"]);
    await expectMessage(await get(t, `/integrations/datagen/compatible-platforms?source_id=${gongSource.id}`, bob.cookie), 404, "Source not found");
    await expectMessage(await get(t, "/integrations/nope/compatible-platforms", alice.cookie), 404, /Unknown source integration/);
    await expectMessage(await get(t, "/integrations/zoom/compatible-platforms"), 401, "User not authenticated");
  });

  it("GET /integrations/source/{id}/platform/{p}/destinations: the caller's destinations; empty with the spec's message", async () => {
    const body = await (await get(t, `/integrations/source/${source.id}/platform/zoom/destinations`, alice.cookie)).json();
    expect(body.status).toBe("success");
    expect(body.destinations.map((d: { id: string }) => d.id).sort()).toEqual([disk.id, disk2.id].sort());
    await expectMessage(await get(t, `/integrations/source/${source.id}/platform/gong/destinations`, alice.cookie), 400, M.platformInvalid);
    await expectMessage(await get(t, `/integrations/source/${source.id}/platform/zoom/destinations`, bob.cookie), 404, "Source not found");
    const bobSource = await datagenSource(bob.cookie);
    const empty = await (await get(t, `/integrations/source/${bobSource.id}/platform/zoom/destinations`, bob.cookie)).json();
    expect(empty).toEqual({ status: "success", destinations: [], message: M.noDestinations });
  });
});

describe("POST /connectors/create", () => {
  it("creates, trimmed, and reads back by id and in the list", async () => {
    const response = await post("/connectors/create", alice.cookie, { ...valid(), platform: "zoom", first_sync: false });
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toMatchObject({ name: "Nightly", description: "all meetings", frequency: "daily", lookback_days: 7, source_id: source.id, destination_ids: [disk.id], platform: "zoom", last_synced_at: null, updated_at: null, paused: false, last_run: null });
    const byId = await (await get(t, `/connectors/list-by-id/${created.id}`, alice.cookie)).json();
    expect(byId).toMatchObject({ id: created.id, name: "Nightly", source_name: "Demo data", destinations: [{ id: disk.id, name: "Disk" }] });
    const list = await (await get(t, "/connectors/list", alice.cookie)).json();
    expect(list.map((c: { id: string }) => c.id)).toContain(created.id);
  });

  it("answers every rule of spec §5 with its message", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "   " }, M.nameRequired],
      [{ name: undefined }, M.nameRequired],
      [{ source_id: "" }, M.sourceRequired],
      [{ frequency: "  " }, M.frequencyRequired],
      [{ frequency: undefined }, M.frequencyRequired],
      [{ frequency: "weekly" }, M.frequencyInvalid],
      [{ lookback_days: undefined }, M.lookbackRequired],
      [{ lookback_days: "" }, M.lookbackRequired],
      [{ lookback_days: 5 }, M.lookbackInvalid],
      [{ platform: "" }, M.platformRequired],
      [{ platform: "gong" }, M.platformInvalid],
      [{ destination_ids: [] }, M.destinationsRequired],
      [{ destination_ids: "nope" }, M.destinationNotFound],
      [{ source_id: "00000000-0000-4000-8000-000000000000" }, M.sourceNotFound],
    ];
    for (const [change, message] of cases) {
      await expectMessage(await post("/connectors/create", alice.cookie, { ...valid(), ...change }), 400, message);
    }
    const bobSource = await datagenSource(bob.cookie, "zoom", "Bob's");
    await expectMessage(await post("/connectors/create", bob.cookie, { ...valid(), source_id: bobSource.id, destination_ids: [] }), 400, M.noDestinationsForPlatform);
    // Another user's source or destination is as absent as a missing one.
    await expectMessage(await post("/connectors/create", bob.cookie, valid()), 400, M.sourceNotFound);
    await expectMessage(await post("/connectors/create", bob.cookie, { ...valid(), source_id: bobSource.id }), 400, M.destinationNotFound);
    await expectMessage(await post("/connectors/create", undefined, valid()), 401, "User not authenticated");
    await expectMessage(await send("POST", "/connectors/create", alice.cookie, undefined, "{not json"), 400, "The request body is not valid JSON.");
    await expectMessage(await post("/connectors/create", alice.cookie, []), 400, /./);
  });

  it("needs a destination of each category the source requires", async () => {
    await t.db.query("UPDATE sources SET required_integration_categories = '{WAREHOUSE,STORAGE}' WHERE id = $1", [gongSource.id]);
    await expectMessage(
      await post("/connectors/create", alice.cookie, { ...valid(), source_id: gongSource.id, platform: "gong" }),
      400,
      "Please select at least one destination for each required category. Missing: WAREHOUSE",
    );
    await t.db.query("UPDATE sources SET required_integration_categories = '{STORAGE}' WHERE id = $1", [gongSource.id]);
    expect((await post("/connectors/create", alice.cookie, { ...valid(), source_id: gongSource.id })).status).toBe(201);
  });
});

describe("update, delete, isolation", () => {
  it("PUT /connectors/update/{id}: fields required as on create, the spec's one destination or a list, daily|hourly only", async () => {
    const created = await (await post("/connectors/create", alice.cookie, { ...valid(), destination_ids: [disk.id, disk2.id] })).json();
    expect(created.destination_ids).toHaveLength(2);
    const body = { name: " Hourly one ", description: " d ", source_id: source.id, destination_id: disk2.id, frequency: "hourly" };
    const response = await put(`/connectors/update/${created.id}`, alice.cookie, body);
    expect(response.status).toBe(200);
    const updated = await (await get(t, `/connectors/list-by-id/${created.id}`, alice.cookie)).json();
    expect(updated).toMatchObject({ name: "Hourly one", description: "d", frequency: "hourly", destination_ids: [disk2.id], lookback_days: 7 });
    expect(updated.updated_at).not.toBeNull();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "" }, M.nameRequired],
      [{ source_id: undefined }, M.sourceRequired],
      [{ destination_id: "" }, M.destinationRequired],
      [{ frequency: "every tuesday" }, M.frequencyInvalid],
      [{ frequency: "" }, M.frequencyRequired],
      [{ destination_ids: [], destination_id: undefined }, M.destinationRequired],
      [{ destination_ids: [disk.id, "8d4f1a52-0000-4000-8000-000000000000"], destination_id: undefined }, M.destinationNotFound],
    ];
    for (const [change, message] of cases) await expectMessage(await put(`/connectors/update/${created.id}`, alice.cookie, { ...body, ...change }), 400, message);
    await expectMessage(await put(`/connectors/update/${created.id}`, bob.cookie, body), 404, M.notFound);
    await expectMessage(await put("/connectors/update/not-a-uuid", alice.cookie, body), 404, M.notFound);
  });

  it("PUT /connectors/update/{id} keeps every destination it is given, and needs no description (issue 35 item 2)", async () => {
    const created = await (await post("/connectors/create", alice.cookie, { ...valid(), description: "", destination_ids: [disk.id, disk2.id] })).json();
    const body = { name: "Renamed only", source_id: source.id, destination_ids: [disk.id, disk2.id], frequency: "daily" };
    expect((await put(`/connectors/update/${created.id}`, alice.cookie, body)).status).toBe(200);
    const kept = await (await get(t, `/connectors/list-by-id/${created.id}`, alice.cookie)).json();
    expect(kept).toMatchObject({ name: "Renamed only", description: "" });
    expect([...kept.destination_ids].sort()).toEqual([disk.id, disk2.id].sort());
    // One taken away, then added back.
    expect((await put(`/connectors/update/${created.id}`, alice.cookie, { ...body, destination_ids: [disk2.id] })).status).toBe(200);
    expect((await (await get(t, `/connectors/list-by-id/${created.id}`, alice.cookie)).json()).destination_ids).toEqual([disk2.id]);
    expect((await put(`/connectors/update/${created.id}`, alice.cookie, { ...body, destination_ids: [disk2.id, disk.id, disk.id] })).status).toBe(200);
    expect([...(await (await get(t, `/connectors/list-by-id/${created.id}`, alice.cookie)).json()).destination_ids].sort()).toEqual([disk.id, disk2.id].sort());
  });

  it("another user's connector is a 404 everywhere", async () => {
    const created = await (await post("/connectors/create", alice.cookie, valid())).json();
    await expectMessage(await get(t, `/connectors/list-by-id/${created.id}`, bob.cookie), 404, M.notFound);
    await expectMessage(await del(`/connectors/delete/${created.id}`, bob.cookie), 404, M.notFound);
    await expectMessage(await post(`/connectors/${created.id}/sync`, bob.cookie), 404, M.notFound);
    await expectMessage(await post(`/connectors/${created.id}/pause`, bob.cookie), 404, M.notFound);
    await expectMessage(await get(t, `/connectors/${created.id}/runs`, bob.cookie), 404, M.notFound);
    const bobs = await (await get(t, "/connectors/list", bob.cookie)).json();
    expect(bobs.map((c: { id: string }) => c.id)).not.toContain(created.id);
    expect((await get(t, `/connectors/list-by-id/${created.id}`, alice.cookie)).status).toBe(200);
  });

  it("DELETE /connectors/delete/{id}: refused while transforms use it, naming them", async () => {
    const created = await (await post("/connectors/create", alice.cookie, valid())).json();
    await t.db.query("INSERT INTO transforms (owner_id, name, transform_type, connector_id) VALUES ($1, 'Topics', 'topic_modeling', $2)", [alice.userId, created.id]);
    await expectMessage(await del(`/connectors/delete/${created.id}`, alice.cookie), 409, 'This connector cannot be deleted because 1 transform uses it: "Topics". Delete those transforms first.');
    await t.db.query("DELETE FROM transforms WHERE connector_id = $1", [created.id]);
    const response = await del(`/connectors/delete/${created.id}`, alice.cookie);
    expect(response.status).toBe(200);
    await expectMessage(await get(t, `/connectors/list-by-id/${created.id}`, alice.cookie), 404, M.notFound);
    await expectMessage(await del(`/connectors/delete/${created.id}`, alice.cookie), 404, M.notFound);
  });

  it("pause and resume", async () => {
    const created = await (await post("/connectors/create", alice.cookie, { ...valid(), first_sync: false })).json();
    expect(await (await post(`/connectors/${created.id}/pause`, alice.cookie)).json()).toMatchObject({ paused: true });
    expect((await (await get(t, `/connectors/list-by-id/${created.id}`, alice.cookie)).json()).paused).toBe(true);
    await post(`/connectors/${created.id}/resume`, alice.cookie);
    expect((await (await get(t, `/connectors/list-by-id/${created.id}`, alice.cookie)).json()).paused).toBe(false);
    expect(await (await get(t, `/connectors/${created.id}/runs`, alice.cookie)).json()).toMatchObject({ status: "success", runs: [] });
  });
});
