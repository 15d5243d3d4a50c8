import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Issue #35 F1: the run-event stream (GET /events/runs) against a real HTTP server standing in for the backend, which
 * counts the polls. A closed connection ends the stream's polling at once; a user has at most RUN_EVENTS_MAX_STREAMS
 * streams; a stream lives RUN_EVENTS_MAX_SECONDS at most. (The web server's part, handing a loader the signal of its
 * own connection, is tested through the real server in tests/e2e/run-events.spec.ts.)
 */
let server: http.Server;
let polls = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/runs/version") polls++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ version: String(polls) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.BACKEND_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.TRIBUTARY_SECRET_KEY ??= "t".repeat(43);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Reads a stream until it ends (a stream that never ends fails the test by its timeout). */
async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  while (!(await reader.read()).done);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signedInCookie(id: string): Promise<string> {
  const { getSession, sessionStorage } = await import("~/services/session.server");
  const session = await getSession(new Request("http://localhost:3000/"));
  session.set("user_info", { id, name: "Grace Hopper", email: `${id}@example.com` });
  return (await sessionStorage().commitSession(session)).split(";")[0]!;
}

/** Opens a stream as the web server would: the request, and its connection's signal (aborted to close it). */
async function open(cookie: string) {
  const { loader } = await import("~/routes/events.runs");
  const connection = new AbortController();
  const request = new Request("http://localhost:3000/events/runs", { headers: { cookie } });
  const response = (await loader({ request, context: { connectionClosed: connection.signal }, params: {} })) as Response;
  const reader = response.status === 200 ? response.body!.getReader() : undefined;
  return { response, close: () => connection.abort(), reader };
}

describe("GET /events/runs", () => {
  it("stops asking the backend as soon as its connection closes", async () => {
    delete process.env.RUN_EVENTS_MAX_SECONDS;
    const cookie = await signedInCookie("user-close");
    const streams = await Promise.all([open(cookie), open(cookie), open(cookie)]);
    for (const s of streams) expect(s.response.status).toBe(200);
    // The first event comes at once; then each stream polls about once a second.
    expect(new TextDecoder().decode((await streams[0]!.reader!.read()).value)).toContain("event: runs");
    const before = polls;
    await sleep(2_500);
    expect(polls - before).toBeGreaterThanOrEqual(3);
    for (const s of streams) s.close();
    // A poll already sent may still be answered; none is sent after it.
    await sleep(1_200);
    const settled = polls;
    await sleep(5_000);
    expect(polls).toBe(settled);
    // The streams ended.
    for (const s of streams) await readToEnd(s.reader!);
  }, 20_000);

  it("takes at most RUN_EVENTS_MAX_STREAMS streams per user: one more is refused with 429 and a sentence, a closed one frees its place", async () => {
    process.env.RUN_EVENTS_MAX_STREAMS = "4";
    try {
      const cookie = await signedInCookie("user-many");
      const streams = [];
      for (let i = 0; i < 4; i++) streams.push(await open(cookie));
      for (const s of streams) expect(s.response.status).toBe(200);
      const refused = await open(cookie);
      expect(refused.response.status).toBe(429);
      expect(await refused.response.text()).toBe("Too many pages are following your runs at once. Close a few Tributary tabs, then reload this page.");
      // Another user is not affected.
      const other = await open(await signedInCookie("user-other"));
      expect(other.response.status).toBe(200);
      other.close();
      streams[0]!.close();
      const again = await open(cookie);
      expect(again.response.status).toBe(200);
      for (const s of [...streams, again]) s.close();
    } finally {
      delete process.env.RUN_EVENTS_MAX_STREAMS;
    }
  });

  it("ends a stream after RUN_EVENTS_MAX_SECONDS, and its polling with it", async () => {
    process.env.RUN_EVENTS_MAX_SECONDS = "1.5";
    try {
      const s = await open(await signedInCookie("user-lifetime"));
      expect(s.response.status).toBe(200);
      const started = Date.now();
      await readToEnd(s.reader!);
      const lived = Date.now() - started;
      expect(lived).toBeGreaterThanOrEqual(1_000);
      expect(lived).toBeLessThan(4_000);
      await sleep(1_200);
      const settled = polls;
      await sleep(3_000);
      expect(polls).toBe(settled);
      // Its place was given back: four more open.
      const next = await Promise.all([1, 2, 3, 4].map(async () => open(await signedInCookie("user-lifetime"))));
      for (const n of next) expect(n.response.status).toBe(200);
      for (const n of next) n.close();
    } finally {
      delete process.env.RUN_EVENTS_MAX_SECONDS;
    }
  }, 20_000);
});
