import { APP_URL, JS_INDEPENDENT } from "./env";
import { expect, login, test } from "./fixtures";
import { CROSS_SITE_MESSAGE, REDIRECT_QUERIES, scriptNonce } from "../support/web-edge";

/**
 * Issue #24, the web server's edge (scripts/web-edge.ts) as a browser meets it: the pages run under the
 * Content-Security-Policy (no violation), a signed-in user's browser posting another site's form is refused, and a
 * browser following a /?redirectTo= variant stays on the site. The rules themselves over raw HTTP (the security
 * headers, the cross-site 403, the body limits, an unreadable time-zone cookie, every redirect variant's Location):
 * tests/http/web-edge.spec.ts.
 */

test.describe("security headers", () => {
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

test.describe("no cross-site writes", () => {
  // The attacker's page is plain HTML, and the 403 comes before any of Tributary's pages: one run (js-on) is enough.
  test("a signed-in user's browser submitting another site's form gets 403, and nothing is written", { tag: JS_INDEPENDENT }, async ({ page, user, allowConsoleErrors }) => {
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
  test("a signed-in user's browser at /?redirectTo=<variant> stays on this site", { tag: JS_INDEPENDENT }, async ({ page, user }) => {
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
    // The server's answer to each variant (a 302 to a path on this site): tests/http/web-edge.spec.ts. Here a
    // browser follows the variants.
    for (const query of REDIRECT_QUERIES.slice(0, 8)) {
      await page.goto(`/?redirectTo=${query}`);
      expect(new URL(page.url()).origin, query).toBe(APP_URL);
    }
    expect(offSite).toEqual([]);
  });
});
