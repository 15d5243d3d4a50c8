import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { APP_URL, BUILD_DIR, E2E_PORTS } from "../e2e/env";
import { serverLogFile } from "../e2e/server";
import { freePort } from "../support/ports";
import { rawGet } from "../support/web";
import { CROSS_SITE_MESSAGE, expectSecurityHeaders, REDIRECT_QUERIES as queries, scriptNonce, TOO_LARGE_MESSAGE } from "../support/web-edge";
import { expect, test } from "./fixtures";

/**
 * Issue #24, the web server's edge (scripts/web-edge.ts) over raw HTTP: security headers on every answer, a bounded
 * request body (and a web server process of its own fed 150 MB), no cross-site writes, an unreadable time-zone
 * cookie read as UTC, and no redirect off the site. What only a browser shows (the pages running under the policy,
 * a browser posting another site's form, a browser following the redirects): tests/e2e/web-edge.spec.ts.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

test.describe("security headers", () => {
  test("a page, a page without scripts of its own, a public file, a built asset and a redirect all carry them", async ({ request }) => {
    const page = await request.get("/");
    expect(page.status()).toBe(200);
    expectSecurityHeaders(page);
    // Every inline script of the page carries this response's nonce, and no other.
    const html = await page.text();
    const nonce = scriptNonce(page.headers()["content-security-policy"]);
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(2);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
    const asset = /src="(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.js)"/.exec(html);
    expect(asset).not.toBeNull();

    // Each render gets a nonce of its own.
    const again = await request.get("/");
    expect(scriptNonce(again.headers()["content-security-policy"])).not.toBe(nonce);

    const favicon = await request.get("/favicon.svg");
    expect(favicon.status()).toBe(200);
    expectSecurityHeaders(favicon);

    const script = await request.get(asset![1] ?? asset![2]!);
    expect(script.status()).toBe(200);
    expectSecurityHeaders(script);

    const terms = await request.get("/terms");
    expect(terms.status()).toBe(200);
    expectSecurityHeaders(terms);

    const redirect = await request.get("/connectors", { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    expect(redirect.headers()["location"]).toBe("/?redirectTo=%2Fconnectors");
    expectSecurityHeaders(redirect);
  });
});

test.describe("a time-zone cookie that cannot be read", () => {
  test("means UTC: the sign-in page and a signed-in user's pages answer 200 with tz=%ZZ", async ({ request, signedIn, playwright }) => {
    for (const value of ["%ZZ", "%", "%E0%A4%A"]) {
      const answer = await request.get("/", { headers: { cookie: `tz=${value}` } });
      expect(answer.status(), value).toBe(200);
    }
    // The signed-in user's cookies, and the unreadable tz cookie beside them.
    const state = await signedIn.request.storageState();
    const cookies = [...state.cookies, { name: "tz", value: "%ZZ", domain: "localhost", path: "/", expires: -1, httpOnly: false, secure: false, sameSite: "Lax" as const }];
    const browser = await playwright.request.newContext({ baseURL: APP_URL, storageState: { cookies, origins: [] } });
    for (const path of ["/connectors", "/destinations", "/sources", "/transforms"]) {
      const answer = await browser.get(path);
      expect(answer.status(), path).toBe(200);
      expect(await answer.text(), path).toContain("<h1");
    }
    await browser.dispose();
  });
});

test.describe("no cross-site writes", () => {
  test("a form posted from another site is refused with 403 and a plain sentence", async ({ request }) => {
    for (const headers of [
      { origin: "http://127.0.0.1:9" } as Record<string, string>,
      { origin: "http://localhost:1" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
    ]) {
      const response = await request.post("/auth/google", { headers, form: { redirectTo: "/sources" }, maxRedirects: 0 });
      expect(response.status(), JSON.stringify(headers)).toBe(403);
      expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
      const text = await response.text();
      expect(text).toContain(CROSS_SITE_MESSAGE);
      expect(text).not.toMatch(/\bat .*\.(js|ts):\d+/);
      expectSecurityHeaders(response);
    }
    // The app's own origin, and a client that sends no Origin, go on to sign-in.
    for (const headers of [{ origin: APP_URL, "sec-fetch-site": "same-origin" }, {}] as Record<string, string>[]) {
      const response = await request.post("/auth/google", { headers, form: { redirectTo: "/sources" }, maxRedirects: 0 });
      expect(response.status(), JSON.stringify(headers)).toBe(302);
    }
  });
});

test.describe("no redirect off the site", () => {
  for (const [i, query] of queries.entries()) {
    test(`variant ${i + 1}: a signed-in user at /?redirectTo=${query} is sent to a path on this site`, async ({ signedIn }) => {
      const answer = await signedIn.request.get(`/?redirectTo=${query}`, { maxRedirects: 0 });
      expect(answer.status(), query).toBe(302);
      const location = answer.headers()["location"]!;
      expect(location, query).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, APP_URL).origin, query).toBe(APP_URL);
    });
  }
});

test.describe("bounded request bodies", () => {
  test("the app answers 413 to a form over the limit, and takes one under it", async ({ request }) => {
    const big = await request.post("/auth/google", { form: { redirectTo: `/${"a".repeat(300 * 1024)}` }, maxRedirects: 0 });
    expect(big.status()).toBe(413);
    expect(await big.text()).toContain(TOO_LARGE_MESSAGE);
    expectSecurityHeaders(big);
    const fine = await request.post("/auth/google", { form: { redirectTo: "/sources", note: "a".repeat(200 * 1024) }, maxRedirects: 0 });
    expect(fine.status()).toBe(302);
  });

  test.describe("a web server process of its own", () => {
    test.setTimeout(120_000);

    let server: ChildProcess | undefined;
    let port = 0;
    test.beforeAll(async () => {
      port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      server = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/serve-app.ts")], {
        cwd: root,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          APP_URL: url,
          WEB_CONCURRENCY: "1",
          TRIBUTARY_BUILD_DIR: BUILD_DIR,
          BACKEND_URL: `http://127.0.0.1:${E2E_PORTS.backend}`,
          TRIBUTARY_SECRET_KEY: randomBytes(32).toString("base64url"),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the web server did not start:\n${output}`)), 60_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("app listening")) {
            clearTimeout(timer);
            resolve();
          }
        };
        server!.stdout!.on("data", read);
        server!.stderr!.on("data", read);
        server!.once("exit", (code) => reject(new Error(`the web server exited (${code}):\n${output}`)));
      });
    });
    test.afterAll(async () => {
      if (!server || server.exitCode !== null) return;
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    });

    test("150 MB posted to /auth/google, declared or chunked, in parallel: 413 at once, and the process stays under 300 MB", async () => {
      const peak = watchRss(server!.pid!);
      const MB = 1024 * 1024;
      const answers = await Promise.all<Promise<{ status: number; body: string; sent: number }>>([
        // Declared: refused before a byte of the body is sent.
        post(port, { declaredLength: 150 * MB, send: 0 }),
        post(port, { declaredLength: 150 * MB, send: 150 * MB }),
        post(port, { declaredLength: 150 * MB, send: 150 * MB }),
        // Chunked: counted as it streams, refused as soon as it passes the limit.
        post(port, { send: 150 * MB }),
        post(port, { send: 150 * MB }),
        post(port, { send: 150 * MB }),
      ]).finally(() => peak.stop());
      const maxRss = peak.stop();
      for (const answer of answers) {
        expect(answer.status).toBe(413);
        expect(answer.body).toContain(TOO_LARGE_MESSAGE);
        // Far from all of it was sent: the server stopped reading.
        expect(answer.sent).toBeLessThan(100 * MB);
      }
      expect(maxRss, `peak VmRSS ${Math.round(maxRss / MB)} MB`).toBeLessThan(300 * MB);

      // Still serving.
      const after = await fetch(`http://127.0.0.1:${port}/`);
      expect(after.status).toBe(200);
      await after.body?.cancel();
    });
  });
});


/** The highest VmRSS of a process while watched (Linux's /proc). */
function watchRss(pid: number): { stop: () => number } {
  let max = 0;
  const sample = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      max = Math.max(max, kb * 1024);
    } catch {
      // The process is gone: the test fails on its answers.
    }
  };
  sample();
  const timer = setInterval(sample, 20);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return max;
    },
  };
}

/**
 * A form POST of `send` bytes to /auth/google, written as fast as the server takes it, stopped as soon as the
 * answer comes. With `declaredLength` it has a Content-Length, else it is chunked.
 */
function post(port: number, { declaredLength, send }: { declaredLength?: number; send: number }): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { "content-type": "application/x-www-form-urlencoded" };
    if (declaredLength !== undefined) headers["content-length"] = declaredLength;
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/auth/google", headers });
    let sent = 0;
    let answered = false;
    const timer = setTimeout(() => reject(new Error(`no answer after ${sent} bytes`)), 30_000);
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, sent });
      });
    });
    // Writing into a connection the server has closed fails: expected once it has answered.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.flushHeaders();
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!answered && sent < send) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered && declaredLength === undefined) req.end();
    };
    pump();
  });
}

/**
 * Issue 50 item 3: the web server's /api proxy lets through /api/v1/… and the reference page /api/docs, after
 * resolving dot segments (percent-encoded ones and encoded slashes too); a path that leaves them is a 404 there, never
 * a backend route of the app's own (sessions, sign-in, e-mail confirmations, readiness). Sent as raw HTTP, as is.
 */
test.describe("the web server's /api proxy", () => {
  const backendRoutes = ["validate-session", "auth/google/callback", "readyz", "email-confirmations", "sources", "v1/../validate-session"];
  for (const escape of ["..", "%2e%2e", "%2E%2E", ".%2e", "%2e.", "v1/../..", "v1/%2e%2e", "v1%2f..", "v1/..%2f..", "v1%2F%2E%2E", "docs/..", "v1/..\\..", "%5c..", "v1%5c..%5c..", "."]) {
    test(`answers 404 to /api/${escape}/<a backend route of the app's own>, never that route`, async () => {
      for (const route of backendRoutes) {
        const path = `/api/${escape}/${route}`;
        const answer = await rawGet(APP_URL, path);
        expect(answer.status, path).toBe(404);
        expect(JSON.parse(answer.text), path).toEqual({ error: { code: "not_found", message: expect.stringMatching(/^No such endpoint: GET /) } });
      }
    });
  }

  test("answers 404 to every other path outside /api/v1 or /api/docs, and forwards the rest as resolved", async () => {
    const web = APP_URL;
    for (const path of ["/api/validate-session", "/api/readyz", "/api/", "/api", "/api/v2/sources", "/api/v1x/sources", "/api/%E0%A4%A"]) {
      expect((await rawGet(web, path)).status, path).toBe(404);
    }
    // What may pass reaches the public API, resolved: no key is a 401 of the API's own.
    for (const path of ["/api/v1/sources", "/api/v1/./sources", "/api/v1/connectors/../sources", "/api/v1/%2e/sources?limit=1"]) {
      const answer = await rawGet(web, path);
      expect(answer.status, path).toBe(401);
      expect(JSON.parse(answer.text).error.code, path).toBe("missing_api_key");
    }
    expect((await rawGet(web, "/api/v1/openapi.json")).status).toBe(200);
    expect((await rawGet(web, "/api/docs")).status).toBe(200);
    expect((await rawGet(web, "/api/v1/../docs")).status).toBe(200);
  });

  test("answers an address with a broken %-escape with a sentence, and logs it in one line without a stack trace (issue 50)", async () => {
    const web = APP_URL;
    for (const path of ["/%E0%A4%A", "/sources/%E0%A4%A"]) {
      const answer = await rawGet(web, path);
      expect(answer.status, path).toBe(400);
      expect(answer.text, path).toBe("This address cannot be read: it holds a broken %-escape. Please check the link and try again.");
      expect(answer.headers["content-security-policy"], path).toBeDefined();
    }
    const proxied = await rawGet(web, "/api/v1/sources/%E0%A4%A", { authorization: "Bearer trb_unknown" });
    expect(proxied.status).toBeGreaterThanOrEqual(400);
    expect(proxied.status).toBeLessThan(500);
    const log = () => readFileSync(serverLogFile, "utf8");
    await expect.poll(() => log().includes('web: 400 for GET "/sources/%E0%A4%A"'), { message: "the web server's log line" }).toBe(true);
    expect(log().split("\n").filter((line) => /URIError|at decode_param/.test(line))).toEqual([]);
  });
});
