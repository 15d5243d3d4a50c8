import { afterAll, beforeAll, expect, it } from "vitest";
import { api, createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { createApiKey } from "../../backend/db/api-keys.js";
import { datagenSourceBody, publicApi } from "../support/public-api.js";

/**
 * Workspaces in the data (issue 51 item 2, first step): a member acts on the records of the workspace they chose while
 * they belong to it, else on their personal one; an API key acts for its workspace while its maker belongs to it.
 * (Choosing, inviting and removing have no screens yet: membership is written here directly.)
 */
let t: TestBackend;
let ada: { userId: string; cookie: string };
let ben: { userId: string; cookie: string };
let team: string;

const names = async (cookie: string) => ((await api(t, cookie, "GET", "/sources/list-all")).body as { name: string }[]).map((s) => s.name).sort();

beforeAll(async () => {
  t = await startTestBackend({ role: "api" });
  ada = await createUserSession(t, "ada@example.com", "Ada");
  ben = await createUserSession(t, "ben@example.com", "Ben");
  team = (await t.db.query<{ id: string }>("INSERT INTO workspaces (name) VALUES ('Data team') RETURNING id")).rows[0]!.id;
  await t.db.query("INSERT INTO workspace_members (workspace_id, user_id) VALUES ($1, $2), ($1, $3)", [team, ada.userId, ben.userId]);
}, 60_000);
afterAll(() => t?.stop());

it("a member works in the workspace they chose while they belong to it, and in their personal one after they leave", async () => {
  const key = await createApiKey(t.handle.db, ada.userId, { name: "own", scope: "read_write", expiresAt: null });
  expect((await publicApi(t)(null, key.token, "POST", "/sources", datagenSourceBody("Ada's own"))).status).toBe(201);

  await t.db.query("UPDATE users SET current_workspace_id = $1 WHERE id = ANY($2)", [team, [ada.userId, ben.userId]]);
  expect(await names(ada.cookie)).toEqual([]);
  const teamKey = await createApiKey(t.handle.db, team, { name: "team", scope: "read_write", expiresAt: null, createdBy: ben.userId });
  expect((await publicApi(t)(null, teamKey.token, "POST", "/sources", datagenSourceBody("Shared"))).status).toBe(201);
  // Both members see the team's source, and only it.
  expect(await names(ada.cookie)).toEqual(["Shared"]);
  expect(await names(ben.cookie)).toEqual(["Shared"]);

  // Ben leaves: his next request is in his personal workspace, and the key he made for the team stops working.
  await t.db.query("DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2", [team, ben.userId]);
  expect(await names(ben.cookie)).toEqual([]);
  const refused = await publicApi(t)(null, teamKey.token, "GET", "/sources");
  expect(refused.status).toBe(401);
  expect(refused.raw.error.code).toBe("invalid_api_key");
  expect(await names(ada.cookie)).toEqual(["Shared"]);
  // Ada's own key still acts for her personal workspace.
  expect(((await publicApi(t)(null, key.token, "GET", "/sources")).raw.data as { name: string }[]).map((s) => s.name)).toEqual(["Ada's own"]);
});
