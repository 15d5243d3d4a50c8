import http from "node:http";
import { APP_URL } from "../e2e/env";
import { loginCookieHeader } from "../e2e/login";
import { expect, test } from "./fixtures";

/**
 * Issue #35 F1, through the real web server: a run-event stream (GET /events/runs) gives its place back as soon as
 * its connection closes (the web server hands the loader its connection's own signal), and a user has a bounded
 * number of them (RUN_EVENTS_MAX_STREAMS, 4, in each web server process). The relay of the backend's own stream is
 * tested in tests/unit/run-events.test.ts, that stream in tests/backend/change-feed.test.ts.
 */
/** Opens a stream with the browser's cookies; answers its status, its first bytes and a way to close it. */
function openStream(cookie: string): Promise<{ status: number; first: string; close: () => void }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${APP_URL}/events/runs`, { headers: { cookie, accept: "text/event-stream" }, agent: false }, (response) => {
      const close = () => request.destroy();
      if (response.statusCode !== 200) {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, first: body, close }));
        return;
      }
      response.once("data", (chunk: Buffer) => resolve({ status: 200, first: chunk.toString(), close }));
    });
    request.on("error", reject);
  });
}

/** Opens 17 streams one after another: every web server process (at most 4) takes 4 of a user's streams, so not all are taken. */
async function openMany(cookie: string) {
  const streams = [];
  for (let i = 0; i < 17; i++) streams.push(await openStream(cookie));
  return streams;
}

test("streams are bounded per user, and a closed connection gives its place back at once", async ({ user }) => {
  test.setTimeout(90_000);
  const cookie = await loginCookieHeader(user);
  const streams = await openMany(cookie);
  const taken = streams.filter((s) => s.status === 200);
  const refused = streams.filter((s) => s.status === 429);
  expect(taken.length + refused.length).toBe(17);
  expect(refused.length).toBeGreaterThan(0);
  expect(refused[0]!.first).toBe("Too many pages are following your runs at once. Close a few Tributary tabs, then reload this page.");
  for (const s of taken) expect(s.first).toContain("event: runs");

  // Closing the connections frees every place within moments: the same number open again. They open one after
  // another, as above: the processes take connections in turn, and the other tests' requests share that turn, so
  // opening only taken.length at once could give one process five of them.
  for (const s of streams) s.close();
  await expect
    .poll(
      async () => {
        const again = await openMany(cookie);
        for (const s of again) s.close();
        return again.filter((s) => s.status === 200).length;
      },
      { timeout: 5_000, intervals: [500, 1_000] },
    )
    .toBe(taken.length);
});
