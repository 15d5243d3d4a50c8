import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { APIResponse } from "@playwright/test";
import { APP_URL, BUILD_DIR, E2E_PORTS, JS_INDEPENDENT } from "./env";
import { expect, login, test } from "./fixtures";
import { freePort } from "../support/ports";

/**
 * Issue #24, the web server's edge (scripts/web-edge.ts): security headers on every answer, a bounded request
 * body, no cross-site writes, and no redirect off the site.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CROSS_SITE_MESSAGE = "This form was sent from another site, so Tributary did not accept it.";
const TOO_LARGE_MESSAGE = "This request is too large for Tributary to accept";

/** The nonce the Content-Security-Policy allows scripts with. */
function scriptNonce(csp: string | undefined): string {
  const nonce = /script-src [^;]*'nonce-([^']+)'/.exec(csp ?? "")?.[1];
  expect(nonce, `a script nonce in ${csp}`).toBeTruthy();
  return nonce!;
}

function expectSecurityHeaders(response: APIResponse) {
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(csp).not.toContain("'unsafe-eval'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  // APP_URL is http://localhost here: HSTS would make the browser refuse every other local http port.
  expect(headers["strict-transport-security"]).toBeUndefined();
}

test.describe("security headers", () => {
  test("a page, a page without scripts of its own, a public file, a built asset and a redirect all carry them", { tag: JS_INDEPENDENT }, async ({ request }) => {
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

  test("the pages run under the policy: no violation on the sign-in page, a list page (also from the page cache) and a form", async ({
    page,
    user,
  }) => {
    test.setTimeout(90_000);
    const violations: string[] = [];
    await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text)).catch(() => {});
    await page.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (e) =>
        (window as unknown as { reportCspViolation?: (t: string) => void }).reportCspViolation?.(`${e.violatedDirective} ${e.blockedURI}`),
      ),
    );
    await login(page, user);
    const first = await page.goto("/connectors");
    expect(first?.status()).toBe(200);
    // Each web server process keeps its own pages: ask until one answers from its cache. A kept page is sent with
    // the policy it was rendered under, so its scripts still run.
    let hit = false;
    for (let i = 0; i < 12 && !hit; i++) {
      const again = await page.reload();
      hit = again?.headers()["x-page-cache"] === "hit";
      if (hit) {
        const nonce = scriptNonce(again?.headers()["content-security-policy"]);
        expect(await again!.text()).toContain(`nonce="${nonce}"`);
      }
    }
    expect(hit).toBe(true);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.goto("/connectors/add");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The failOnBrowserErrors fixture fails the test on the console error a blocked script or style would log.
    expect(violations).toEqual([]);
  });
});

test.describe("a time-zone cookie that cannot be read", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "Raw HTTP answers: one run is enough.");

  test("means UTC: the sign-in page and a signed-in user's pages answer 200 with tz=%ZZ", async ({ request, page, context, user }) => {
    for (const value of ["%ZZ", "%", "%E0%A4%A"]) {
      const answer = await request.get("/", { headers: { cookie: `tz=${value}` } });
      expect(answer.status(), value).toBe(200);
    }
    await login(page, user);
    await context.addCookies([{ name: "tz", value: "%ZZ", url: APP_URL }]);
    for (const path of ["/connectors", "/destinations", "/sources", "/transforms"]) {
      const answer = await page.request.get(path);
      expect(answer.status(), path).toBe(200);
      expect(await answer.text(), path).toContain("<h1");
    }
  });
});

test.describe("no cross-site writes", () => {
  test("a form posted from another site is refused with 403 and a plain sentence", { tag: JS_INDEPENDENT }, async ({ request }) => {
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

  test("a signed-in user's browser submitting another site's form gets 403, and nothing is written", async ({ page, user, allowConsoleErrors }) => {
    test.setTimeout(90_000);
    allowConsoleErrors(/Failed to load resource: .*403/);
    await login(page, user);
    // A page on another local origin (served by the browser's router: no server, no traffic), posting to Tributary.
    const attacker = "http://127.0.0.1:9/attack";
    await page.route(attacker, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>Attack</title><form method="post" action="${APP_URL}/logout"><button>Win a prize</button></form>`,
      }),
    );
    await page.goto(attacker);
    const [answer] = await Promise.all([page.waitForResponse(`${APP_URL}/logout`), page.getByRole("button", { name: "Win a prize" }).click()]);
    expect(answer.status()).toBe(403);
    await expect(page.getByText(CROSS_SITE_MESSAGE)).toBeVisible();
    // Still signed in: the cross-site post changed nothing.
    await page.goto("/connectors");
    await expect(page).toHaveURL(`${APP_URL}/connectors`);
  });
});

test.describe("no redirect off the site", () => {
  /** The variants, and more, as a link would carry them in ?redirectTo= (each encoded once more below). */
  const variants = [
    "/.//evil.example",
    "/./\\evil.example",
    "/%2e//evil.example",
    "/a/..//evil.example",
    "/%2E%2E//evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
  ];
  const queries = [
    "%2F.%2F%2Fevil.example", // the issue's own example
    "/.//evil.example",
    "/%2e//evil.example",
    "/a/..//evil.example",
    ...variants.map((v) => encodeURIComponent(v)),
    ...variants.map((v) => encodeURIComponent(encodeURIComponent(v))),
  ];

  test("a signed-in user at /?redirectTo=<variant> is sent to a path on this site", async ({ page, user }) => {
    test.setTimeout(120_000);
    await login(page, user);
    // Nothing leaves the machine even if a redirect went wrong: other hosts are refused in the browser.
    const offSite: string[] = [];
    await page.route(
      (url) => url.hostname !== "localhost" && url.hostname !== "127.0.0.1",
      (route) => {
        offSite.push(route.request().url());
        return route.abort();
      },
    );
    for (const query of queries) {
      const answer = await page.request.get(`/?redirectTo=${query}`, { maxRedirects: 0 });
      expect(answer.status(), query).toBe(302);
      const location = answer.headers()["location"]!;
      expect(location, query).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, APP_URL).origin, query).toBe(APP_URL);
    }
    // And in the browser, for the variants.
    for (const query of queries.slice(0, 8)) {
      await page.goto(`/?redirectTo=${query}`);
      expect(new URL(page.url()).origin, query).toBe(APP_URL);
    }
    expect(offSite).toEqual([]);
  });
});

test.describe("bounded request bodies", () => {
  test("the app answers 413 to a form over the limit, and takes one under it", { tag: JS_INDEPENDENT }, async ({ request }) => {
    const big = await request.post("/auth/google", { form: { redirectTo: `/${"a".repeat(300 * 1024)}` }, maxRedirects: 0 });
    expect(big.status()).toBe(413);
    expect(await big.text()).toContain(TOO_LARGE_MESSAGE);
    expectSecurityHeaders(big);
    const fine = await request.post("/auth/google", { form: { redirectTo: "/sources", note: "a".repeat(200 * 1024) }, maxRedirects: 0 });
    expect(fine.status()).toBe(302);
  });

  // One run is enough: nothing here depends on the browser.
  test.describe("a web server process of its own", { tag: JS_INDEPENDENT }, () => {
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
