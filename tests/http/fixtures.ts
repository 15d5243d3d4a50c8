import { test as base, expect, type APIRequestContext } from "@playwright/test";
import { uniqueEmail } from "../e2e/fixtures";
import { loginCookieHeader, type TestUser } from "../e2e/login";
import { APP_URL } from "../e2e/env";
import { open, submit, type FormFields, type WebPage } from "../support/forms";

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
