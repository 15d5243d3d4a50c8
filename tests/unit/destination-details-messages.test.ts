import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESTINATION_MESSAGES as M } from "@contract/destinations";

/**
 * Spec §8's integration-details messages, each where its call fails: the destination pages' loaders against a
 * real HTTP server standing in for the backend, whose service-account call (the chosen type's integration
 * details) fails.
 */
let server: http.Server;
const destination = {
  id: "11111111-1111-4111-8111-111111111111",
  name: "Lake",
  description: "",
  category: "STORAGE",
  integration_name: "storage",
  integration_label: "Google Cloud Storage",
  status: "ACTIVE",
  config: { project_id: "demo-project", bucket_name: "lake" },
  credential_id: null,
  created_at: "2026-11-26T00:00:00.000Z",
  updated_at: "2026-11-26T00:00:00.000Z",
  connector_count: 0,
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      // As the backend answers (contract/responses.ts): the app's client checks every answer.
      if (req.url === "/validate-session") return json(200, { message: "Session is valid", user_info: { id: "u1", name: "Grace Hopper", email: "grace@example.com" } });
      if (req.url === "/integrations/destinations") return json(200, { status: "success", data: { destinations: [{ name: "storage", label: "Google Cloud Storage" }] } });
      if (req.url === `/destinations/list-by-id/${destination.id}`) return json(200, destination);
      if (req.url?.endsWith("/service_account")) return json(503, { message: "The platform's key could not be read." });
      json(404, { message: "Not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.BACKEND_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.TRIBUTARY_SECRET_KEY ??= "t".repeat(43);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function signedIn(path: string): Promise<Request> {
  const { getSession, sessionStorage } = await import("~/services/session.server");
  const session = await getSession(new Request("http://localhost:3000/"));
  session.set("user_info", { name: "Grace Hopper", email: "grace@example.com" } as never);
  const cookie = (await sessionStorage().commitSession(session)).split(";")[0]!;
  return new Request(`http://localhost:3000${path}`, { headers: { cookie: `${cookie}; tributary_session=abc` } });
}

describe("integration details that cannot be fetched", () => {
  it("create: the chosen type's details call failed, so 'Failed to fetch integration details' and the reason", async () => {
    const { loader } = await import("~/routes/_app.destinations.add");
    const data = (await loader({ request: await signedIn("/destinations/add?type=storage"), params: {}, context: {} })) as { errors: string[]; serviceAccount: unknown };
    expect(data.errors).toEqual([`${M.integrationDetailsFetchFailed}. The platform's key could not be read.`]);
    expect(M.integrationDetailsFetchFailed).toBe("Failed to fetch integration details");
    expect(data.serviceAccount).toBeNull();
  });

  it("edit: the stored destination's details call failed, so the spec's sentence for this destination", async () => {
    const { loader } = await import("~/routes/_app.destinations.edit.$id");
    const result = await loader({ request: await signedIn(`/destinations/edit/${destination.id}`), params: { id: destination.id }, context: {} });
    const data = (result instanceof Response ? await result.json() : "data" in (result as object) ? (result as { data: unknown }).data : result) as { errors: string[] };
    expect(data.errors).toEqual(["Failed to load integration details for this destination."]);
  });
});
