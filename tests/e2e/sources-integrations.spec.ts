import type { Page } from "@playwright/test";
import { expect, expectAccessible, login, test } from "./fixtures";

/**
 * Issue 3 against the local fakes (tests/fakes/), JS on and off: Zoom (redirect
 * out to its consent page and back with ?code=, which the page posts to the
 * callback and removes from the address), Microsoft Teams (admin consent,
 * instructions, verification, an already-connected team) and Gmail (auth
 * types, groups, test connection). The e2e global setup starts the fakes and
 * points the backend at them (ZOOM_*, TEAMS_* / MICROSOFT_*, GMAIL_* / GOOGLE_*).
 */
const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;
const banner = (page: Page) => page.getByRole("alert");
const nameField = (page: Page) => page.getByLabel("Name", { exact: true });

test.describe("Zoom", () => {
  test.beforeAll(() => expect(process.env.ZOOM_OAUTH_BASE_URL, "the fake Zoom is not configured (ZOOM_OAUTH_BASE_URL): tests/e2e/fakes.ts sets it").toBeTruthy());

  test("authorize at Zoom and back, choose a group, create", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/sources/add/zoom" });
    await nameField(page).fill("Company meetings");
    await page.getByLabel("Description").fill("Every Zoom call");
    const back = page.waitForRequest((r) => new URL(r.url()).pathname === "/sources/add/zoom" && new URL(r.url()).searchParams.has("code"));
    await page.getByRole("button", { name: "Authenticate" }).click();
    await expect(page).toHaveURL((url) => url.href.startsWith(process.env.ZOOM_OAUTH_BASE_URL!) && url.pathname === "/oauth/authorize");
    await page.getByRole("button", { name: "Allow" }).click();
    const returned = new URL((await back).url());
    expect(returned.searchParams.get("state")).toBeTruthy();
    // The code was posted to the callback and removed from the address.
    await expect(page).toHaveURL((url) => url.pathname === "/sources/add/zoom" && url.search === "");
    await expect(page.getByText("Authenticated with Zoom")).toBeVisible();
    await expect(nameField(page)).toHaveValue("Company meetings");
    await expect(page.getByLabel("Description")).toHaveValue("Every Zoom call");
    await expect(page.getByRole("button", { name: "Create" })).toBeEnabled(); // entire organization

    await page.getByLabel("A specific group").check();
    if (!jsEnabled) await page.getByRole("button", { name: "Continue with this scope" }).click();
    const group = page.getByLabel("Zoom group");
    await expect(group.locator("option")).toHaveText(["Select a group", "Sales (12 members)", "Customer Support (7 members)"]);
    if (jsEnabled) {
      await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
    } else {
      await page.getByRole("button", { name: "Create" }).click();
      await expect(banner(page)).toHaveText("Please select a Zoom group");
    }
    await page.getByLabel("Zoom group").selectOption({ label: "Customer Support (7 members)" });
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page).toHaveURL(/\/sources$/);
    await page.getByRole("link", { name: "Company meetings" }).click();
    const details = page.locator("dl");
    await expect(details).toContainText("Zoom");
    await expect(details).toContainText("A specific group");
    await expect(details).toContainText("Customer Support");
    await expect(details).toContainText("Active");
  });

  test("declining at Zoom comes back as a failed authentication", async ({ page, user }) => {
    await login(page, user, { from: "/sources/add/zoom" });
    await nameField(page).fill("Declined");
    await page.getByRole("button", { name: "Authenticate" }).click();
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/sources/add/zoom" && url.search === "");
    await expect(banner(page)).toHaveText("Zoom authentication failed: access_denied.");
    await expect(page.getByText("Authentication failed", { exact: true })).toBeVisible();
    await expect(nameField(page)).toHaveValue("Declined");
    await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
  });

  test("a forged return (wrong state) is refused with a message", async ({ page, user }) => {
    await login(page, user, { from: "/sources/add/zoom" });
    await page.goto("/sources/add/zoom?code=stolen&state=forged");
    await expect(page).toHaveURL((url) => url.pathname === "/sources/add/zoom" && url.search === "");
    await expect(banner(page)).toContainText("This authorization could not be verified");
    await expect(page.getByText("Not authenticated")).toBeVisible();
  });
});

test.describe("Microsoft Teams", () => {
  test.beforeAll(() => expect(process.env.MICROSOFT_LOGIN_BASE_URL, "the fake Microsoft identity platform is not configured (MICROSOFT_LOGIN_BASE_URL): tests/e2e/fakes.ts sets it").toBeTruthy());

  async function consentAndChooseTeam(page: Page, jsEnabled: boolean, team: string) {
    await page.getByRole("button", { name: "Authenticate" }).click();
    await page.getByRole("button", { name: "Accept" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/sources/add/teams" && url.search === "");
    await expect(page.getByText("Authenticated with Microsoft Teams")).toBeVisible();
    await page.getByLabel("A specific team").check();
    if (!jsEnabled) await page.getByRole("button", { name: "Continue with this scope" }).click();
    await page.getByLabel("Team", { exact: true }).selectOption({ label: team });
    if (!jsEnabled) await page.getByRole("button", { name: "Continue with this scope" }).click();
    await expect(page.getByText("Grant it to the team's members")).toBeVisible();
    await expectAccessible(page);
  }

  test("admin consent, instructions, verification, and an already-connected team", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
    test.slow(); // two full admin-consent round trips
    allowConsoleErrors(BAD_REQUEST);
    // The fake tenant is shared by the parallel JS-on and JS-off runs: each uses its own team.
    const team = jsEnabled ? "Sales Team (2 members)" : "Engineering (1 member)";
    await login(page, user, { from: "/sources/add/teams" });
    await nameField(page).fill("Team calls");
    await consentAndChooseTeam(page, jsEnabled, team);
    const teamId = await page.getByLabel("Team", { exact: true }).inputValue();
    await expect(page.getByRole("button", { name: "Create" })).toBeDisabled(); // not verified
    await page.getByRole("button", { name: "Verify Setup" }).click();
    await expect(banner(page)).toHaveText(
      "Verification failed. Please fix the setup and try again. Microsoft Graph answered 403: No application access policy found for this app.",
    );
    // The administrator runs the instructions' PowerShell for this team.
    await fetch(`${process.env.MICROSOFT_LOGIN_BASE_URL}/_fake/policy?to=${encodeURIComponent(teamId)}`, { method: "POST" });
    await page.getByRole("button", { name: "Verify Setup" }).click();
    await expect(page.getByText("Setup verified")).toBeVisible();
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page).toHaveURL(/\/sources$/);

    // The same team again is refused.
    await page.goto("/sources/add/teams");
    await nameField(page).fill("Same team again");
    await consentAndChooseTeam(page, jsEnabled, `${team} — already connected`);
    await page.getByRole("button", { name: "Verify Setup" }).click();
    await expect(page.getByText("Setup verified")).toBeVisible();
    await page.getByRole("button", { name: "Create" }).click();
    await expect(banner(page)).toHaveText("This team is already connected. Please choose another team.");
  });
});

test.describe("Gmail", () => {
  test.beforeAll(() => expect(process.env.GOOGLE_ADMIN_BASE_URL, "the fake Google is not configured (GOOGLE_ADMIN_BASE_URL): tests/e2e/fakes.ts sets it").toBeTruthy());

  test("auth types, instructions, groups, test connection, create", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
    test.slow(); // every Gmail step, with an accessibility check
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/sources/add/gmail" });
    await nameField(page).fill("Support mail");
    const authType = page.getByLabel("Authentication type", { exact: true });
    await expect(authType.locator("option")).toHaveText([
      "Select an authentication type",
      "Google Workspace service account (domain-wide delegation)",
      "Google Workspace service account, verified by a test connection",
      "Individual mailbox (sign in with Google)",
    ]);
    await expect(authType).toHaveValue("service_account");
    const apply = async () => {
      if (!jsEnabled) await page.getByRole("button", { name: "Continue with this authentication type" }).click();
      await expect(page).toHaveURL(/gmail_auth_mode=/);
    };
    await authType.selectOption("");
    await apply();
    await page.getByRole("button", { name: "Authenticate" }).click();
    await expect(banner(page)).toHaveText("Please select a Gmail authentication type");

    await page.getByLabel("Authentication type", { exact: true }).selectOption("service_account_verified");
    await apply();
    await page.getByRole("button", { name: "Generate Instructions" }).click();
    await expect(page.getByRole("heading", { name: "Setup instructions" })).toBeVisible();
    await expect(page.getByText("Not verified yet")).toBeVisible();
    await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
    await expectAccessible(page);

    await page.getByLabel("Workspace admin e-mail").fill("admin@acme.example");
    await page.getByLabel("A specific group").check();
    await page.getByRole("button", { name: "Load groups" }).click();
    await page.getByLabel("Google group").selectOption({ label: "Support (support@acme.example)" });
    await page.getByRole("button", { name: "Test Connection" }).click();
    await expect(page.getByText("Setup verified")).toBeVisible();
    // Changing what was verified (the admin) needs a new test before Create.
    await page.getByLabel("Workspace admin e-mail").fill("sam@acme.example");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(banner(page)).toHaveText("You must verify the integration setup");
    await expect(page.getByText("Not verified yet")).toBeVisible();
    await page.getByLabel("Workspace admin e-mail").fill("admin@acme.example");
    await page.getByRole("button", { name: "Test Connection" }).click();
    await expect(page.getByText("Setup verified")).toBeVisible();
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page).toHaveURL(/\/sources$/);
    await page.getByRole("link", { name: "Support mail" }).click();
    await expect(page.locator("dl")).toContainText("support@acme.example");
    await expect(page.locator("dl")).toContainText("admin@acme.example");
  });

  test("default mode: no verification, admin e-mail required", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/sources/add/gmail" });
    await nameField(page).fill("All mail");
    await page.getByRole("button", { name: "Authenticate" }).click();
    await expect(page.getByText("Authenticated with Gmail")).toBeVisible();
    await expect(page.getByRole("button", { name: "Test Connection" })).toHaveCount(0);
    if (jsEnabled) {
      await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
      await page.getByLabel("Workspace admin e-mail").fill("not-an-address");
    }
    await page.getByRole("button", { name: "Create" }).click();
    await expect(banner(page)).toHaveText(jsEnabled ? "Please enter a valid Workspace admin e-mail" : "Workspace admin e-mail is required");
    await page.getByLabel("Workspace admin e-mail").fill("admin@acme.example");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page).toHaveURL(/\/sources$/);
  });

  test("individual mailbox: sign in with Google and back, test connection, create", async ({ page, user, jsEnabled }) => {
    expect(process.env.GOOGLE_OAUTH_AUTH_URL, "the fake Google OAuth is not configured (GOOGLE_OAUTH_AUTH_URL): tests/e2e/fakes.ts sets it").toBeTruthy();
    await login(page, user, { from: "/sources/add/gmail" });
    await nameField(page).fill("Sam's mail");
    await page.getByLabel("Authentication type", { exact: true }).selectOption("individual");
    if (!jsEnabled) await page.getByRole("button", { name: "Continue with this authentication type" }).click();
    await expect(page).toHaveURL(/gmail_auth_mode=individual/);
    await page.getByRole("button", { name: "Authenticate" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/sources/add/gmail" && !url.searchParams.has("code"));
    await expect(page.getByText("Authenticated with Gmail")).toBeVisible();
    await expect(page.getByLabel("Workspace admin e-mail")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Create" })).toBeDisabled();
    await page.getByRole("button", { name: "Test Connection" }).click();
    await expect(page.getByText("Setup verified")).toBeVisible();
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page).toHaveURL(/\/sources$/);
    await page.getByRole("link", { name: "Sam's mail" }).click();
    await expect(page.locator("dl")).toContainText("Individual mailbox");
  });
});
