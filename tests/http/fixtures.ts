import { test as base, expect, type APIRequestContext } from "@playwright/test";
import { uniqueEmail } from "../e2e/fixtures";
import { loginCookieHeader, type TestUser } from "../e2e/login";
import { APP_URL } from "../e2e/env";
import { accessibleDescription, fillForm, open, submit, type FormFields, type WebPage } from "../support/forms";

export { expect };

/**
 * The HTTP layer of the suite (playwright.config.ts's "http" project): a server rule — a validation sentence, a
 * refusal, a 404, a redirect, a header — checked once, by asking the run's real web server as a browser without
 * JavaScript would (tests/support/forms.ts), no browser started. Every user flow still runs in a browser with
 * JavaScript on and off (tests/e2e/).
 */
export interface Web {
  readonly request: APIRequestContext;
  open(path: string): Promise<WebPage>;
  submit(path: string, fields: FormFields): Promise<WebPage>;
}

/** `request` (a cookie jar of its own) as a browser without JavaScript. */
export function web(request: APIRequestContext): Web {
  return { request, open: (path) => open(request, path), submit: (path, fields) => submit(request, path, fields, APP_URL) };
}

/** A browser's cookie jar holding a signed-in user's two session cookies (login.ts). */
async function signedInContext(playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } }, user: TestUser) {
  const header = await loginCookieHeader(user);
  const cookies = header.split("; ").map((pair) => {
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: "localhost", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" as const };
  });
  return playwright.request.newContext({ baseURL: APP_URL, storageState: { cookies, origins: [] } });
}

export const test = base.extend<{
  user: TestUser;
  /** The web server as `user`'s browser without JavaScript sees it: signed in, with a cookie jar of its own. */
  signedIn: Web;
  /** The web server as a signed-out browser sees it. */
  signedOut: Web;
  /** Signs another user in, in a cookie jar of their own (closed after the test). */
  another: (name?: string) => Promise<Web & { user: TestUser }>;
}>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their first argument
  user: async ({}, provide) => {
    await provide({ name: "Grace Hopper", email: uniqueEmail("grace") });
  },
  signedIn: async ({ playwright, user }, provide) => {
    const context = await signedInContext(playwright, user);
    await provide(web(context));
    await context.dispose();
  },
  signedOut: async ({ playwright }, provide) => {
    const context = await playwright.request.newContext({ baseURL: APP_URL });
    await provide(web(context));
    await context.dispose();
  },
  another: async ({ playwright }, provide) => {
    const contexts: APIRequestContext[] = [];
    await provide(async (name = "Mallory Stranger") => {
      const user = { name, email: uniqueEmail(name.split(" ")[0]!.toLowerCase()) };
      const context = await signedInContext(playwright, user);
      contexts.push(context);
      return { ...web(context), user };
    });
    for (const context of contexts) await context.dispose();
  },
});

/** What fillForm (tests/support/forms.ts) changes in a form before it is sent. */
type FormChanges = Record<string, string | string[] | null>;

/**
 * A browser without JavaScript pressing the submit button `button` (its text) of the form `selector` on `page`, after
 * typing `changes` (fillForm): the form's fields as drawn, posted to its action; answers the page it ends on.
 */
export function press(web: Web, page: WebPage, selector: string, button: string, changes: FormChanges = {}): Promise<WebPage> {
  const { action, fields } = fillForm(page, selector, changes, button);
  return web.submit(action, fields);
}

/**
 * A browser without JavaScript applying a choice that shapes the form `selector` (a type, a source, a platform) with
 * its Continue button (formmethod="get"): the form's fields with `changes`, sent as a GET to the button's formaction.
 */
export function choose(web: Web, page: WebPage, selector: string, changes: FormChanges = {}): Promise<WebPage> {
  const { action, fields } = fillForm(page, selector, changes);
  const formAction = page.$(selector).first().find('button[formmethod="get"]').first().attr("formaction");
  const query = new URLSearchParams(fields).toString();
  return web.open(`${formAction ?? action.split("?")[0]}${query ? `?${query}` : ""}`);
}

/** Whether the button with this text (exact, whitespace collapsed) on `page` is disabled; throws when there is none. */
export function buttonDisabled(page: WebPage, text: string): boolean {
  const button = page.$("button")
    .toArray()
    .find((element) => page.$(element).text().replace(/\s+/g, " ").trim() === text);
  if (!button) throw new Error(`no "${text}" button on ${page.url.href}`);
  return page.$(button).is("[disabled]");
}

/** A details page's Delete, confirmed as a browser without JavaScript does it: its link to the dialog, then the dialog's button. */
export async function confirmDelete(web: Web, details: WebPage, button = "Delete"): Promise<WebPage> {
  const [link] = details.links("Delete");
  expect(link, `a Delete link on ${details.url.href}`).toBeTruthy();
  const confirming = await web.open(link!);
  expect(confirming.$('[role="dialog"]'), "the confirmation dialog").toHaveLength(1);
  return press(web, confirming, '[role="dialog"] form', button);
}

/**
 * The control with this id as a screen reader and a sighted user meet it: whether it is marked invalid, what is read
 * with it (accessibleDescription, tests/support/forms.ts) and the error shown under it (`#${id}-error`, or null).
 */
export function fieldState(page: WebPage, id: string): { invalid: boolean; description: string; error: string | null } {
  return { invalid: page.invalid(id), description: accessibleDescription(page, id), error: page.fieldError(id) };
}
