import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";

/** Issue 27 "Find things" and "Health at a glance": search, filters and sorts of the four list calls. */
let t: TestBackend;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };

const q = (sql: string, params: unknown[]) => t.db.query(sql, params);
const names = async (path: string, cookie = alice.cookie) => {
  const response = await get(t, path, cookie);
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { name: string }[]).map((r) => r.name);
};

async function seed(ownerId: string, prefix: string) {
  const source = async (name: string, type: string, label: string, status: string | null, minutesAgo: number) =>
    (
      await q(
        "INSERT INTO sources (owner_id, name, description, integration_name, integration_label, status, created_at) VALUES ($1, $2, '', $3, $4, $5, now() - make_interval(mins => $6)) RETURNING id",
        [ownerId, name, type, label, status, minutesAgo],
      )
    ).rows[0].id as string;
  const meetings = await source(`${prefix} Meetings`, "datagen", "Data generator", "active", 3);
  const zoom = await source(`${prefix} zoom_calls 100%`, "zoom", "Zoom", "error", 2);
  await source(`${prefix} zoomXcalls 1000`, "zoom", "Zoom", "active", 1);
  await q("INSERT INTO destinations (owner_id, name, integration_name, integration_label, category) VALUES ($1, $2, 'local', 'Local folder', 'STORAGE')", [ownerId, `${prefix} Folder`]);
  await q("INSERT INTO destinations (owner_id, name, integration_name, integration_label, category) VALUES ($1, $2, 'postgres', 'PostgreSQL', 'WAREHOUSE')", [ownerId, `${prefix} Warehouse`]);

  const connector = async (name: string, sourceId: string, minutesAgo: number, options: { paused?: boolean; run?: string; syncedMinutesAgo?: number; frequency?: string } = {}) => {
    const id = (
      await q(
        `INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days, paused, created_at, last_synced_at)
         VALUES ($1, $2, $3, $4, 7, $5, now() - make_interval(mins => $6), CASE WHEN $7::int IS NULL THEN NULL ELSE now() - make_interval(mins => $7::int) END) RETURNING id`,
        [ownerId, name, sourceId, options.frequency ?? "daily", options.paused ?? false, minutesAgo, options.syncedMinutesAgo ?? null],
      )
    ).rows[0].id as string;
    if (options.run) {
      // An older failure first: only the newest run counts.
      await q("INSERT INTO sync_runs (connector_id, owner_id, status, created_at) VALUES ($1, $2, 'failed', now() - interval '1 hour')", [id, ownerId]);
      await q("INSERT INTO sync_runs (connector_id, owner_id, status) VALUES ($1, $2, $3)", [id, ownerId, options.run]);
    }
    return id;
  };
  const healthy = await connector(`${prefix} Alpha`, meetings, 6, { run: "succeeded", syncedMinutesAgo: 30, frequency: "hourly" });
  await connector(`${prefix} bravo`, zoom, 5, { run: "failed", syncedMinutesAgo: 5 });
  await connector(`${prefix} Charlie`, meetings, 4, { run: "running", syncedMinutesAgo: 60 });
  await connector(`${prefix} delta`, zoom, 3, { run: "queued" });
  await connector(`${prefix} Echo`, meetings, 2, { paused: true, run: "succeeded", syncedMinutesAgo: 10 });
  await connector(`${prefix} foxtrot`, meetings, 1);
  const transform = async (name: string, type: string, run: string | null, minutesAgo: number) => {
    const id = (
      await q("INSERT INTO transforms (owner_id, name, transform_type, connector_id, created_at) VALUES ($1, $2, $3, $4, now() - make_interval(mins => $5)) RETURNING id", [
        ownerId,
        name,
        type,
        healthy,
        minutesAgo,
      ])
    ).rows[0].id as string;
    if (run) await q("INSERT INTO transform_runs (transform_id, owner_id, status, created_at) VALUES ($1, $2, $3, now() - make_interval(mins => $4))", [id, ownerId, run, minutesAgo]);
  };
  await transform(`${prefix} Topics`, "topic_modeling", "succeeded", 3);
  await transform(`${prefix} Risks`, "deal_risk", "failed", 2);
  await transform(`${prefix} Words`, "topic_modeling", null, 1);
}

beforeAll(async () => {
  t = await startTestBackend();
  alice = await createUserSession(t, "alice.find@example.com", "Alice Example");
  bob = await createUserSession(t, "bob.find@example.com", "Bob Example");
  await seed(alice.userId, "A");
  await seed(bob.userId, "B");
});
afterAll(async () => {
  await t?.stop();
});

describe("search by name", () => {
  it("finds a part of the name, whatever its case, on every list", async () => {
    expect(await names("/sources/list?q=MEET")).toEqual(["A Meetings"]);
    expect(await names("/destinations/list?q=house")).toEqual(["A Warehouse"]);
    expect(await names("/connectors/list?q=ALPHA")).toEqual(["A Alpha"]);
    expect(await names("/transforms/list?q=risk")).toEqual(["A Risks"]);
  });

  it("takes % and _ as the characters they are", async () => {
    expect(await names("/sources/list?q=100%25")).toEqual(["A zoom_calls 100%"]);
    expect(await names("/sources/list?q=zoom_")).toEqual(["A zoom_calls 100%"]);
  });

  it("an empty search is no search; one of over 200 characters is a 400 with a sentence", async () => {
    expect(await names("/sources/list?q=")).toHaveLength(3);
    const response = await get(t, `/sources/list?q=${"x".repeat(201)}`, alice.cookie);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("Search for at most 200 characters.");
  });
});

describe("health at a glance and the status filter", () => {
  it("connectors carry their health (paused wins; else the newest run; else never run) and their next sync", async () => {
    const response = await get(t, "/connectors/list", alice.cookie);
    const rows = (await response.json()) as { name: string; health: string; next_run_at: string | null; frequency: string }[];
    const health = Object.fromEntries(rows.map((r) => [r.name, r.health]));
    expect(health).toEqual({ "A Alpha": "healthy", "A bravo": "failed", "A Charlie": "running", "A delta": "queued", "A Echo": "paused", "A foxtrot": "never_run" });
    const now = Date.now();
    for (const row of rows) {
      if (row.name === "A Echo") expect(row.next_run_at).toBeNull();
      else {
        const next = new Date(row.next_run_at!).getTime();
        expect(next).toBeGreaterThan(now - 5_000);
        expect(next).toBeLessThanOrEqual(now + (row.frequency === "hourly" ? 3_600_000 : 86_400_000));
      }
    }
  });

  it.each([
    ["healthy", ["A Alpha"]],
    ["failed", ["A bravo"]],
    ["running", ["A Charlie"]],
    ["queued", ["A delta"]],
    ["paused", ["A Echo"]],
    ["never_run", ["A foxtrot"]],
  ])("connectors ?status=%s", async (status, expected) => {
    expect(await names(`/connectors/list?status=${status}`)).toEqual(expected);
  });

  it("transforms by their newest run, sources by theirs", async () => {
    expect(await names("/transforms/list?status=succeeded")).toEqual(["A Topics"]);
    expect(await names("/transforms/list?status=failed")).toEqual(["A Risks"]);
    expect(await names("/transforms/list?status=never_run")).toEqual(["A Words"]);
    expect(await names("/sources/list?status=error")).toEqual(["A zoom_calls 100%"]);
  });

  it("a status the list does not have is a 400 with a sentence", async () => {
    for (const path of ["/connectors/list?status=bogus", "/transforms/list?status=healthy", "/destinations/list?status=active"]) {
      const response = await get(t, path, alice.cookie);
      expect(response.status, path).toBe(400);
      expect((await response.json()).message).toBe("Choose a status from the list.");
    }
  });
});

describe("the type filter", () => {
  it("sources and destinations by their integration, connectors by their source's, transforms by theirs", async () => {
    expect(await names("/sources/list?type=zoom")).toEqual(["A zoomXcalls 1000", "A zoom_calls 100%"]);
    expect(await names("/destinations/list?type=postgres")).toEqual(["A Warehouse"]);
    expect(await names("/connectors/list?type=zoom")).toEqual(["A delta", "A bravo"]);
    expect(await names("/transforms/list?type=topic_modeling")).toEqual(["A Words", "A Topics"]);
    const response = await get(t, "/destinations/list?type=ftp", alice.cookie);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("Choose a type from the list.");
  });

  it("filters combine with the search", async () => {
    expect(await names("/connectors/list?type=datagen&status=healthy&q=al")).toEqual(["A Alpha"]);
    expect(await names("/connectors/list?type=zoom&status=healthy")).toEqual([]);
  });
});

describe("sort", () => {
  it("newest first by default; oldest; by name either way, whatever the case", async () => {
    expect(await names("/connectors/list")).toEqual(["A foxtrot", "A Echo", "A delta", "A Charlie", "A bravo", "A Alpha"]);
    expect(await names("/connectors/list?sort=oldest")).toEqual(["A Alpha", "A bravo", "A Charlie", "A delta", "A Echo", "A foxtrot"]);
    expect(await names("/connectors/list?sort=name")).toEqual(["A Alpha", "A bravo", "A Charlie", "A delta", "A Echo", "A foxtrot"]);
    expect(await names("/connectors/list?sort=name_desc")).toEqual(["A foxtrot", "A Echo", "A delta", "A Charlie", "A bravo", "A Alpha"]);
    expect(await names("/sources/list?sort=name")).toEqual(["A Meetings", "A zoom_calls 100%", "A zoomXcalls 1000"].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  });

  it("by last sync: the time the list's column shows (the newest run's, else the last sync's), most recent first, never synced last", async () => {
    // Issue 39: each fixture's newest run was recorded after its last sync, in creation order, so the runs' times decide;
    // a failing connector with a time is never sorted below one that never ran (foxtrot, last).
    expect(await names("/connectors/list?sort=last_sync")).toEqual(["A Echo", "A delta", "A Charlie", "A bravo", "A Alpha", "A foxtrot"]);
    expect(await names("/transforms/list?sort=last_sync")).toEqual(["A Risks", "A Topics", "A Words"]);
  });

  it("pages keep the order and the filters", async () => {
    expect(await names("/connectors/list?sort=name&page_size=4")).toEqual(["A Alpha", "A bravo", "A Charlie", "A delta"]);
    expect(await names("/connectors/list?sort=name&page_size=4&page=2")).toEqual(["A Echo", "A foxtrot"]);
    const response = await get(t, "/connectors/list?type=datagen&page_size=2", alice.cookie);
    expect(response.headers.get("x-total-count")).toBe("4");
  });

  it("an order the list does not have is a 400 with a sentence", async () => {
    for (const path of ["/sources/list?sort=last_sync", "/connectors/list?sort=size"]) {
      const response = await get(t, path, alice.cookie);
      expect(response.status, path).toBe(400);
      expect((await response.json()).message).toBe("Choose an order from the list.");
    }
  });
});

describe("two users", () => {
  it("no search, filter or sort shows another user's records", async () => {
    for (const path of ["/sources/list?q=A ", "/connectors/list?q=Alpha", "/connectors/list?status=failed", "/transforms/list?type=deal_risk", "/destinations/list?sort=name"]) {
      for (const name of await names(path, bob.cookie)) expect(name, path).toMatch(/^B /);
    }
    expect(await names("/connectors/list?q=A Alpha", bob.cookie)).toEqual([]);
  });
});
