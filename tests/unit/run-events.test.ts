import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Issue #35 F1, issue 36: the run-event stream (GET /events/runs) against a real HTTP server standing in for the
 * backend's own stream (GET /runs/events), which counts the streams it holds open. A closed connection closes the
 * backend stream at once; a user has at most RUN_EVENTS_MAX_STREAMS streams; a stream lives RUN_EVENTS_MAX_SECONDS at
 * most. (The web server's part, handing a loader the signal of its own connection, is tested through the real server
 * in tests/e2e/run-events.spec.ts.)
 */
let server: http.Server;
/** The backend streams open now, and a way to push an event down each. */
const upstreams = new Set<http.ServerResponse>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url !== "/runs/events") return void res.writeHead(404).end();
    const cookie = req.headers.cookie ?? "";
    if (cookie.includes("backend=ended")) return void res.writeHead(401, { "content-type": "application/json" }).end('{"message":"User not authenticated"}');
    if (cookie.includes("backend=down")) return void res.writeHead(503, { "content-type": "application/json" }).end('{"message":"stopping"}');
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("event: runs\ndata: v1\n\n");
    upstreams.add(res);
    res.on("close", () => upstreams.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.BACKEND_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.TRIBUTARY_SECRET_KEY ??= "t".repeat(43);
});
afterAll(() => {
  for (const res of upstreams) res.destroy();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Reads a stream until it ends (a stream that never ends fails the test by its timeout). */
async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  while (!(await reader.read()).done);
}

/** Reads a stream until what it sent so far matches `pattern`; answers that text. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, pattern: RegExp): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  while (!pattern.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before ${pattern}: ${JSON.stringify(text)}`);
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

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
  it("relays the backend's events as they come, and closes its backend stream as soon as its connection closes", async () => {
    delete process.env.RUN_EVENTS_MAX_SECONDS;
    const cookie = await signedInCookie("user-close");
    const streams = await Promise.all([open(cookie), open(cookie), open(cookie)]);
    for (const s of streams) expect(s.response.status).toBe(200);
    expect(streams[0]!.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    // The backend's first event comes at once, and each one it pushes after it.
    for (const s of streams) expect(await readUntil(s.reader!, /event: runs\ndata: v1\n\n/)).toContain("data: v1");
    expect(upstreams.size).toBe(3);
    for (const res of upstreams) res.write("event: runs\ndata: v2\n\n");
    for (const s of streams) expect(await readUntil(s.reader!, /data: v2\n\n/)).toContain("event: runs");
    for (const s of streams) s.close();
    await expect.poll(() => upstreams.size, { timeout: 5_000 }).toBe(0);
    // The streams ended.
    for (const s of streams) await readToEnd(s.reader!);
  }, 20_000);

  it("a backend that does not answer: the browser is told to come back in a few seconds, and the place is given back", async () => {
    process.env.RUN_EVENTS_MAX_STREAMS = "1";
    try {
      const cookie = `${await signedInCookie("user-down")}; backend=down`;
      const s = await open(cookie);
      expect(s.response.status).toBe(200);
      expect(await readUntil(s.reader!, /retry: \d+\n\n/)).toBe("retry: 5000\n\n");
      await readToEnd(s.reader!);
      const again = await open(cookie);
      expect(again.response.status).toBe(200);
      again.close();
    } finally {
      delete process.env.RUN_EVENTS_MAX_STREAMS;
    }
  });

  it("a session the backend says is over: the usual redirect to sign in, and no place is kept", async () => {
    process.env.RUN_EVENTS_MAX_STREAMS = "1";
    try {
      const cookie = `${await signedInCookie("user-ended")}; backend=ended`;
      const thrown = await open(cookie).catch((error: unknown) => error);
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(302);
      const ok = await open(await signedInCookie("user-ended"));
      expect(ok.response.status).toBe(200);
      ok.close();
    } finally {
      delete process.env.RUN_EVENTS_MAX_STREAMS;
    }
  });

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

  it("ends a stream after RUN_EVENTS_MAX_SECONDS, and its backend stream with it", async () => {
    process.env.RUN_EVENTS_MAX_SECONDS = "1.5";
    try {
      const s = await open(await signedInCookie("user-lifetime"));
      expect(s.response.status).toBe(200);
      const started = Date.now();
      await readToEnd(s.reader!);
      const lived = Date.now() - started;
      expect(lived).toBeGreaterThanOrEqual(1_000);
      expect(lived).toBeLessThan(4_000);
      await expect.poll(() => upstreams.size, { timeout: 5_000 }).toBe(0);
      // Its place was given back: four more open.
      const next = await Promise.all([1, 2, 3, 4].map(async () => open(await signedInCookie("user-lifetime"))));
      for (const n of next) expect(n.response.status).toBe(200);
      for (const n of next) n.close();
    } finally {
      delete process.env.RUN_EVENTS_MAX_SECONDS;
    }
  }, 20_000);
});
