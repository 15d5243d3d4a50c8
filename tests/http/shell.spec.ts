import { expect, test } from "./fixtures";

/**
 * Spec §2 (route table) and issue 2 point 4, the server's rules for an unknown path: signed out, it shows sign-in
 * remembering the path; signed in, it answers a real 404 page inside the shell (the main navigation and the profile
 * menu). The shell itself, and the 404 page's accessibility and its link back, in a browser with JavaScript on and
 * off: tests/e2e/shell.spec.ts.
 */

test.describe("unknown paths", () => {
  test("signed out, an unknown path shows sign-in and remembers the path", async ({ signedOut }) => {
    const page = await signedOut.open("/no-such-page");
    expect(page.url.pathname).toBe("/");
    expect(page.url.searchParams.get("redirectTo")).toBe("/no-such-page");
    expect(page.headings()).toEqual(["Welcome"]);
  });

  test("signed in, an unknown path is a real 404 page inside the shell", async ({ signedIn }) => {
    for (const path of ["/no-such-page", "/sources/no/such/thing"]) {
      const page = await signedIn.open(path);
      expect(page.status, path).toBe(404);
      expect(page.$("h1, h2, h3, h4, h5, h6").toArray().map((heading) => page.$(heading).text().trim()), path).toContain("Page not found");
      expect(page.$('nav[aria-label="Main"]'), path).toHaveLength(1);
      expect(page.text("summary[data-profile-menu]"), path).toContain("Profile menu for Grace Hopper (GH)");
    }
  });
});
