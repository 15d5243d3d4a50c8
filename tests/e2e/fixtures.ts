import { randomBytes } from "node:crypto";
import axe from "axe-core";
import { test as base, expect, type Browser, type Locator, type Page } from "@playwright/test";
import { APP_URL, IDP_ORIGIN } from "./env";

import type { TestUser } from "./login";

export { expect };
export { login, loginCookieHeader, type TestUser } from "./login";

interface Fixtures {
  /**
   * Console errors matching one of these are expected by this test (for
   * example Chromium's "Failed to load resource: … 404" on the deliberate 404
   * page). Everything else logged with console.error fails the test.
   */
  allowConsoleErrors: (...patterns: RegExp[]) => void;
  /** Internal: collects console errors and page errors, and fails the test on any unexpected one. */
  failOnBrowserErrors: void;
  /** A fresh user for this test (distinct e-mail, so users never share records). */
  user: TestUser;
  /** True in the project that runs with JavaScript enabled. */
  jsEnabled: boolean;
}

/**
 * A distinct e-mail address per call: users of different tests never see each other's records. A mailbox of its own,
 * not a +tag of one shared address: the alert e-mail limits count by mailbox (a +tag is the same mailbox).
 */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now().toString(36)}${randomBytes(4).toString("hex")}@example.com`;
}

/**
 * The one known harmless message, allowed in every test: when a newer navigation interrupts one whose data is still
 * arriving, Remix 2.17's single fetch logs the aborted body read with console.error before dropping that result
 * (React Router 7 logs nothing there). tests/e2e/shell.spec.ts makes it happen on purpose. Chromium words the abort
 * by where the read was when the newer navigation (a link, or a form's submit while the last one's revalidation
 * is still arriving) aborted it: "BodyStreamBuffer was aborted", or "signal is aborted without reason" with the
 * stack of that navigation.
 */
export const INTERRUPTED_NAVIGATION = /^AbortError: (?:BodyStreamBuffer was aborted$|signal is aborted without reason\n\s+at )/;

export const test = base.extend<Fixtures & { allowed: RegExp[] }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their first argument
  allowed: async ({}, provide) => {
    await provide([INTERRUPTED_NAVIGATION]);
  },
  allowConsoleErrors: async ({ allowed }, provide) => {
    await provide((...patterns) => {
      allowed.push(...patterns);
    });
  },
  failOnBrowserErrors: [
    async ({ context, allowed }, provide, testInfo) => {
      const problems: string[] = [];
      context.on("console", (message) => {
        if (message.type() !== "error") return;
        const text = message.text();
        if (allowed.some((re) => re.test(text))) return;
        const where = message.location();
        problems.push(`console.error on ${message.page()?.url() ?? "?"}: ${text}${where.url ? ` (${where.url}:${where.lineNumber})` : ""}`);
      });
      context.on("weberror", (error) => {
        problems.push(`page error on ${error.page()?.url() ?? "?"}: ${error.error().stack ?? error.error().message}`);
      });
      await provide();
      // Only judge tests that otherwise passed, so a real failure is not hidden behind this one.
      if (testInfo.status === testInfo.expectedStatus) {
        expect(problems, "the browser reported unexpected console errors or page errors").toEqual([]);
      }
    },
    { auto: true },
  ],
  // eslint-disable-next-line no-empty-pattern -- as above
  user: async ({}, provide) => {
    await provide({ name: "Grace Hopper", email: uniqueEmail("grace") });
  },
  jsEnabled: async ({ javaScriptEnabled }, provide) => {
    await provide(javaScriptEnabled !== false);
  },
});

/**
 * Signs in through the real flow (tests/e2e/sign-in.spec.ts; every other test uses the faster login()): the app's "Continue with Google" button, the
 * local OpenID provider's form (standing in for Google), the code exchange, and
 * back to the app. Starts from `from` (default: the current page if it is the
 * sign-in page, else "/"). `app` and `idp` name another Tributary than the run's.
 */
export async function signIn(page: Page, user: TestUser, options: { from?: string; app?: string; idp?: string } = {}): Promise<void> {
  const app = options.app ?? APP_URL;
  const idp = options.idp ?? IDP_ORIGIN;
  const here = new URL(page.url());
  if (options.from !== undefined || here.origin !== app || here.pathname !== "/") {
    await page.goto(new URL(options.from ?? "/", app).href);
  }
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await page.waitForURL((url) => url.origin === idp && url.pathname.startsWith("/interaction/"));
  await page.getByLabel("Full name").fill(user.name);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL((url) => url.origin === app && url.pathname !== "/auth/google/callback");
}

/** Signs out through the profile menu (a <details> element, so it works with JS off too). */
export async function signOut(page: Page): Promise<void> {
  await page.locator('summary[data-profile-menu]').click();
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL((url) => url.origin === APP_URL && url.pathname === "/");
}

/**
 * One JavaScript-enabled page per browser (a worker's) for expectAccessible's copies of JS-off pages: each check
 * loads its copy there (its own route, viewport). The copies run no script and send no cookie, so nothing carries
 * over from one check to the next; the stylesheets, the fonts and axe's compiled script stay cached, which makes a
 * check about twice as fast as in a page of its own.
 */
const sandboxes = new WeakMap<Browser, Promise<Page>>();
/** The address and markup each sandbox holds now. */
const sandboxCopies = new WeakMap<Page, string>();
function sandboxPage(browser: Browser): Promise<Page> {
  let sandbox = sandboxes.get(browser);
  if (!sandbox) {
    sandbox = browser.newContext({ javaScriptEnabled: true }).then((context) => context.newPage());
    sandboxes.set(browser, sandbox);
  }
  return sandbox;
}

/**
 * axe-core's own `axe.run` on the page's document (no page of the app has a frame), with full details for violations
 * only: passes and the rest come back with one node each, which halves the check's time. axe is loaded into a
 * document once, when it is not there yet (a check after a client-side navigation, or of the next copy written
 * into the JS-off sandbox, reuses it): loading its 650 kB script cost more than the check itself, and
 * @axe-core/playwright's builder loaded it twice per check.
 */
async function runAxe(page: Page): Promise<axe.AxeResults> {
  // The page as it settles, not halfway through a transition (a panel fading back in after a load): axe reads the
  // colours of the moment. Endless animations (a running run's pulse) are left running.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const loaded = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === "function");
  if (!loaded) await page.evaluate(axe.source);
  return page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), { resultTypes: ["violations"] } as axe.RunOptions);
}

/**
 * axe-core on the current page: no violation of impact serious or critical.
 *
 * axe runs asynchronously (timers), and a page with JavaScript disabled never
 * fires timers, so with JS off the page's server-rendered HTML is checked in a
 * separate JS-enabled page instead: same markup, same stylesheets and fonts
 * (fetched from the app), scripts stripped so nothing hydrates or changes it.
 * The first copy is loaded at the page's own address; the next ones are written
 * into that document in place, which spares a navigation each.
 */
export async function expectAccessible(page: Page): Promise<void> {
  const jsEnabled = test.info().project.use.javaScriptEnabled !== false;
  let target = page;
  let dispose = async () => {};
  if (!jsEnabled) {
    // Without its fragment: a copy at "…#results" after one at "…" would be a jump within the page, not a load.
    const url = page.url().replace(/#.*$/, "");
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
    target = await sandboxPage(page.context().browser()!);
    const viewport = page.viewportSize();
    if (viewport) await target.setViewportSize(viewport);
    if (sandboxCopies.get(target) === `${url}\n${html}`) {
      // The same copy at another width (expectAccessibleAtEveryWidth): a page without scripts only needs the resize.
    } else if (new URL(target.url()).origin === new URL(url).origin) {
      // Written into the sandbox's document in place (no navigation): the links resolve against the app's origin.
      await target.setContent(html);
    } else {
      const copy = (u: URL) => u.href === url;
      await target.route(copy, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
      dispose = () => target.unroute(copy);
      await target.goto(url);
    }
    sandboxCopies.set(target, `${url}\n${html}`);
  }
  try {
    const results = await runAxe(target);
    const serious = results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.impact}: ${v.id} — ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}: ${n.failureSummary ?? ""}`).join("\n")}`);
    expect(serious, `axe found serious or critical violations on ${page.url()}`).toEqual([]);
  } finally {
    await dispose();
  }
}

/** The widths every page is checked at by axe: a desktop's and a phone's. */
export const AXE_VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/**
 * expectAccessible at each of AXE_VIEWPORTS, for a page a spec reaches in a state no other spec can; the page's own
 * viewport is set back afterwards.
 */
export async function expectAccessibleAtEveryWidth(page: Page): Promise<void> {
  const own = page.viewportSize();
  for (const viewport of AXE_VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectAccessible(page);
  }
  if (own) await page.setViewportSize(own);
}

/**
 * With JavaScript, waits until React has taken the page over (its <main> carries React's fiber): a key pressed or a
 * node added before that is the server's page's, which hydration does not follow.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await expect.poll(() => page.locator("main").first().evaluate((main) => Object.keys(main).some((key) => key.startsWith("__reactFiber")))).toBe(true);
}

/** The rows of a details page's run history, newest first (the page has other tables too: the Schema section's columns). */
export function runHistoryRows(page: Page): Locator {
  return page.getByRole("region", { name: "Run history" }).locator("tbody tr");
}

/** "Sync now" on a connector's details page, then waits (with JS the page polls, without it refreshes) until that run succeeded. */
export async function syncNow(page: Page, connectorId: string): Promise<void> {
  await page.goto(`/connectors/details/${connectorId}`);
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(runHistoryRows(page).first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 60_000 });
}

/** The value of a details page's row (its <dd>), found by the row's label (its <dt>, exactly). */
export function detailValue(page: Page, label: string): Locator {
  return page.locator("dl > div").filter({ has: page.locator("dt").getByText(label, { exact: true }) }).locator("dd");
}

/** The page has no horizontal overflow (nothing sticks out past the viewport's width). */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `page is ${scrollWidth}px wide in a ${clientWidth}px viewport`).toBeLessThanOrEqual(clientWidth);
}

/**
 * The element is fully shown: no ancestor with overflow other than "visible"
 * cuts it off. (Playwright's toBeVisible() counts an element hidden by an
 * ancestor's overflow clipping as visible.) Works with JS off: the check is synchronous.
 */
export async function expectNotClipped(locator: Locator): Promise<void> {
  const clippedBy = await locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    for (let node = element.parentElement; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const clip = node.getBoundingClientRect();
      const outside = box.left < clip.left - 0.5 || box.right > clip.right + 0.5 || box.top < clip.top - 0.5 || box.bottom > clip.bottom + 0.5;
      if (outside) return `<${node.tagName.toLowerCase()} class="${node.className}"> (overflow ${style.overflowX}/${style.overflowY})`;
    }
    return null;
  });
  expect(clippedBy, "the element is cut off by an ancestor's overflow").toBeNull();
}
