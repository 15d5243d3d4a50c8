import { APP_URL } from "../e2e/env";
import { providerSignIn } from "../support/forms";
import { expect, test } from "./fixtures";

/**
 * Spec §2 (route table) and issue 2 points 2–3, the server's rules: guarded routes send a signed-out visitor to
 * sign-in remembering the path and back there after signing in through the provider; a redirect never leaves the
 * site. The sign-in flow itself, in a browser with JavaScript on and off: tests/e2e/sign-in.spec.ts.
 */

const offSite = (hops: URL[]) => hops.map((hop) => hop.hostname).filter((host) => host !== "localhost" && host !== "127.0.0.1");

test.describe("guarded routes", () => {
  const GUARDED = ["/connectors", "/sources", "/destinations", "/transforms", "/connectors/add", "/destinations/add"];
  for (const path of GUARDED) {
    test(`${path}: signed out goes to sign-in remembering the path, and back there after sign-in`, async ({ signedOut, user }) => {
      const signIn = await signedOut.open(path);
      expect(signIn.url.pathname).toBe("/");
      expect(signIn.url.searchParams.get("redirectTo")).toBe(path);
      expect(signIn.headings()).toEqual(["Welcome"]);
      const { page } = await providerSignIn(signedOut.request, user, { app: APP_URL, from: signIn.url.pathname + signIn.url.search });
      expect(page.url.origin).toBe(APP_URL);
      expect(page.url.pathname).toBe(path);
      expect(page.status).toBe(200);
      expect(page.$('nav[aria-label="Main"]')).toHaveLength(1);
    });
  }

  test("the remembered path keeps its query string", async ({ signedOut, user }) => {
    const signIn = await signedOut.open("/sources?page=1");
    expect(signIn.url.pathname).toBe("/");
    expect(signIn.url.searchParams.get("redirectTo")).toBe("/sources?page=1");
    const { page } = await providerSignIn(signedOut.request, user, { app: APP_URL, from: signIn.url.pathname + signIn.url.search });
    expect(page.url.href).toBe(`${APP_URL}/sources?page=1`);
  });
});

test.describe("no open redirect", () => {
  for (const target of ["//evil.example", "https://evil.example", "/\\evil.example"]) {
    test(`/?redirectTo=${target} signs in to /connectors and never leaves the site`, async ({ signedOut, user }) => {
      const from = `/?redirectTo=${encodeURIComponent(target)}`;
      expect((await signedOut.open(from)).headings()).toEqual(["Welcome"]);
      const { page, hops } = await providerSignIn(signedOut.request, user, { app: APP_URL, from });
      expect(page.url.href).toBe(`${APP_URL}/connectors`);
      expect(offSite(hops)).toEqual([]);
    });
  }

  // "/sources" is the control: it shows the forged form value really reaches the server.
  for (const [target, landing] of [
    ["//evil.example", "/connectors"],
    ["https://evil.example/x", "/connectors"],
    ["/\\evil.example", "/connectors"],
    ["/sources", "/sources"],
  ] as const) {
    test(`a redirectTo=${target} forged into the sign-in form lands on ${landing}`, async ({ signedOut, user }) => {
      const { page, hops } = await providerSignIn(signedOut.request, user, { app: APP_URL, from: "/", redirectTo: target });
      expect(page.url.href).toBe(`${APP_URL}${landing}`);
      expect(offSite(hops)).toEqual([]);
    });
  }
});
