import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession, get, startTestBackend, type TestBackend } from "../support/backend.js";

let t: TestBackend;
let alice: { userId: string; cookie: string };
let bob: { userId: string; cookie: string };

async function seed(ownerId: string, prefix: string, connectorCount: number) {
  const q = (sql: string, params: unknown[]) => t.db.query(sql, params);
  const source = await q(
    "INSERT INTO sources (owner_id, name, description, integration_name, integration_label) VALUES ($1, $2, 'meetings', 'datagen', 'Data generator') RETURNING id",
    [ownerId, `${prefix} source`],
  );
  const destination = await q(
    "INSERT INTO destinations (owner_id, name, integration_name, integration_label, category) VALUES ($1, $2, 'local', 'Local folder', 'STORAGE') RETURNING id",
    [ownerId, `${prefix} destination`],
  );
  const other = await q(
    "INSERT INTO destinations (owner_id, name, integration_name, integration_label, category, created_at) VALUES ($1, $2, 'local', 'Local folder', 'STORAGE', now() - interval '1 day') RETURNING id",
    [ownerId, `${prefix} archive`],
  );
  const sourceId = source.rows[0].id;
  const destinationId = destination.rows[0].id;
  for (let i = 0; i < connectorCount; i++) {
    const c = await q(
      "INSERT INTO connectors (owner_id, name, source_id, frequency, lookback_days, created_at) VALUES ($1, $2, $3, 'daily', 7, now() - make_interval(mins => $4)) RETURNING id",
      [ownerId, `${prefix} connector ${i}`, sourceId, i],
    );
    await q("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [c.rows[0].id, destinationId]);
    if (i === 0) {
      await q("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [c.rows[0].id, other.rows[0].id]);
      await q("INSERT INTO transforms (owner_id, name, transform_type, connector_id) VALUES ($1, $2, 'topic_modeling', $3)", [ownerId, `${prefix} transform`, c.rows[0].id]);
    }
  }
  return { sourceId, destinationId };
}

beforeAll(async () => {
  t = await startTestBackend();
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
  bob = await createUserSession(t, "bob@example.com", "Bob Example");
  await seed(alice.userId, "Alice", 55);
  await seed(bob.userId, "Bob", 2);
});
afterAll(async () => {
  await t?.stop();
});

describe.each(["sources", "destinations", "connectors", "transforms"])("GET /%s/list", (resource) => {
  it("refuses without a session", async () => {
    const response = await get(t, `/${resource}/list`);
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe("User not authenticated");
  });

  it("shows each user only their own records", async () => {
    const mine = await (await get(t, `/${resource}/list?page_size=200`, bob.cookie)).json();
    expect(mine.length).toBeGreaterThan(0);
    for (const row of mine) expect(row.name).toMatch(/^Bob/);
  });

  it.each([["page=0"], ["page=abc"], ["page=1.5"], ["page_size=0"], ["page_size=201"]])("answers ?%s with 400 and a message", async (query) => {
    const response = await get(t, `/${resource}/list?${query}`, alice.cookie);
    expect(response.status).toBe(400);
    expect(typeof (await response.json()).message).toBe("string");
  });
});

describe("paging", () => {
  it("pages 50 at a time, newest first, with the total in X-Total-Count", async () => {
    const first = await get(t, "/connectors/list", alice.cookie);
    expect(first.headers.get("x-total-count")).toBe("55");
    const rows = await first.json();
    expect(rows).toHaveLength(50);
    expect(rows[0].name).toBe("Alice connector 0");
    expect(rows[49].name).toBe("Alice connector 49");
    const second = await (await get(t, "/connectors/list?page=2", alice.cookie)).json();
    expect(second.map((r: { name: string }) => r.name)).toEqual([50, 51, 52, 53, 54].map((i) => `Alice connector ${i}`));
    expect(await (await get(t, "/connectors/list?page=3", alice.cookie)).json()).toEqual([]);
  });
});

describe("list shapes (spec §3)", () => {
  it("connectors carry their source and destination names", async () => {
    const [row] = await (await get(t, "/connectors/list?page_size=1", alice.cookie)).json();
    expect(row).toMatchObject({ source_name: "Alice source", frequency: "daily", lookback_days: 7, last_synced_at: null });
    expect(row.destinations.map((d: { name: string }) => d.name)).toEqual(["Alice archive", "Alice destination"]);
    expect(row.destination_ids).toHaveLength(2);
    const [, next] = await (await get(t, "/connectors/list?page_size=2", alice.cookie)).json();
    expect(next.destinations.map((d: { name: string }) => d.name)).toEqual(["Alice destination"]);
    expect(new Date(row.created_at).toISOString()).toBe(row.created_at);
  });

  it("sources and destinations count their connectors", async () => {
    const [source] = await (await get(t, "/sources/list", alice.cookie)).json();
    expect(source).toMatchObject({ name: "Alice source", connector_count: 55, integration_name: "datagen", type: "datagen", status: null });
    const [destination, archive] = await (await get(t, "/destinations/list", alice.cookie)).json();
    expect(destination).toMatchObject({ name: "Alice destination", connector_count: 55, category: "STORAGE" });
    expect(archive).toMatchObject({ name: "Alice archive", connector_count: 1 });
  });

  it("transforms carry their connector's name", async () => {
    const [row] = await (await get(t, "/transforms/list", alice.cookie)).json();
    expect(row).toMatchObject({ name: "Alice transform", transform_type: "topic_modeling", connector_name: "Alice connector 0", status: "PENDING" });
  });
});

describe("one transform: GET /transforms/{id}, DELETE /transforms/delete/{id}", () => {
  it("reads and deletes only the owner's transform; others get 404", async () => {
    const [mine] = await (await get(t, "/transforms/list", bob.cookie)).json();
    expect((await get(t, `/transforms/${mine.id}`, bob.cookie)).status).toBe(200);
    expect((await get(t, `/transforms/${mine.id}`, alice.cookie)).status).toBe(404);
    expect((await get(t, "/transforms/not-a-uuid", bob.cookie)).status).toBe(404);
    const del = (cookie: string, id = mine.id) => fetch(`${t.url}/transforms/delete/${id}`, { method: "DELETE", headers: { cookie } });
    const refused = await del(alice.cookie);
    expect(refused.status).toBe(404);
    expect((await refused.json()).message).toBe("Transform not found");
    expect((await get(t, `/transforms/${mine.id}`, bob.cookie)).status).toBe(200);
    expect((await del(bob.cookie)).status).toBe(200);
    expect((await get(t, `/transforms/${mine.id}`, bob.cookie)).status).toBe(404);
    expect((await del(bob.cookie)).status).toBe(404);
    expect((await del(bob.cookie, "x")).status).toBe(404);
  });
});

describe("the data version (X-Data-Version, for the web server's page cache)", () => {
  const version = async (cookie: string) => {
    const response = await get(t, "/validate-session", cookie);
    expect(response.status).toBe(200);
    return response.headers.get("x-data-version");
  };
  const q = (sql: string, params: unknown[] = []) => t.db.query(sql, params);

  it("comes with the session check and with the lists, the same while nothing changes", async () => {
    const before = await version(alice.cookie);
    // The process, its epoch, the workspace and the count: a member who switches workspace matches no page of the other.
    expect(before).toMatch(/^[\w-]+\.[0-9a-f-]{36}\.\d+$/);
    for (const resource of ["sources", "destinations", "connectors", "transforms"]) {
      expect((await get(t, `/${resource}/list`, alice.cookie)).headers.get("x-data-version")).toBe(before);
    }
    expect(await version(alice.cookie)).toBe(before);
    expect((await get(t, "/validate-session")).headers.get("x-data-version")).toBeNull();
  });

  it("changes with every write to what the lists show, for its owner only", async () => {
    const [connector] = await (await get(t, "/connectors/list?page_size=1", alice.cookie)).json();
    const [transform] = await (await get(t, "/transforms/list", alice.cookie)).json();
    const [destination] = await (await get(t, "/destinations/list", alice.cookie)).json();
    const [source] = await (await get(t, "/sources/list", alice.cookie)).json();
    const writes: [string, () => Promise<unknown>][] = [
      ["source renamed", () => q("UPDATE sources SET name = name || '!' WHERE id = $1", [source.id])],
      ["destination renamed", () => q("UPDATE destinations SET name = name || '!' WHERE id = $1", [destination.id])],
      ["connector renamed", () => q("UPDATE connectors SET name = name || '!' WHERE id = $1", [connector.id])],
      ["destination unlinked", () => q("DELETE FROM connector_destinations WHERE connector_id = $1 AND destination_id = $2", [connector.id, destination.id])],
      ["destination linked", () => q("INSERT INTO connector_destinations (connector_id, destination_id) VALUES ($1, $2)", [connector.id, destination.id])],
      ["transform edited", () => q("UPDATE transforms SET description = 'x' WHERE id = $1", [transform.id])],
      ["sync run queued", () => q("INSERT INTO sync_runs (connector_id, owner_id) VALUES ($1, $2)", [connector.id, alice.userId])],
      ["sync run finished", () => q("UPDATE sync_runs SET status = 'succeeded', finished_at = now() WHERE connector_id = $1", [connector.id])],
      ["sync run deleted", () => q("DELETE FROM sync_runs WHERE connector_id = $1", [connector.id])],
      ["transform run queued", () => q("INSERT INTO transform_runs (transform_id, owner_id) VALUES ($1, $2)", [transform.id, alice.userId])],
      ["transform run failed", () => q("UPDATE transform_runs SET status = 'failed', error = 'x' WHERE transform_id = $1", [transform.id])],
      ["transform run deleted", () => q("DELETE FROM transform_runs WHERE transform_id = $1", [transform.id])],
    ];
    for (const [what, write] of writes) {
      const mine = await version(alice.cookie);
      const theirs = await version(bob.cookie);
      await write();
      expect(await version(alice.cookie), what).not.toBe(mine);
      expect(await version(bob.cookie), what).toBe(theirs);
    }
    // Through the API as well: a connector deleted by its owner.
    const mine = await version(bob.cookie);
    const [bobs] = await (await get(t, "/connectors/list", bob.cookie)).json();
    const [bobsTransform] = await (await get(t, "/transforms/list", bob.cookie)).json();
    if (bobsTransform) await fetch(`${t.url}/transforms/delete/${bobsTransform.id}`, { method: "DELETE", headers: { cookie: bob.cookie } });
    const deleted = await fetch(`${t.url}/connectors/delete/${bobs.id}`, { method: "DELETE", headers: { cookie: bob.cookie } });
    expect(deleted.status).toBe(200);
    expect(await version(bob.cookie)).not.toBe(mine);
  });
});
