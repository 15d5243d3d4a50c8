import type { Page, Route } from "@playwright/test";
import { seedConnector, seedLocalDestination, seedSource, userIdByEmail, withDb } from "./db";
import { expect, login, test, type TestUser } from "./fixtures";

/**
 * Issue 50 item 2, JS on: a choice the user sees is the choice the server gets. Every select whose choice reloads
 * the page's data (source type; connector source and platform; destination type; transform template) is changed and
 * the next button pressed at once, while the page's load for that choice is still on its way: the press carries
 * the choice shown (or waits for it), never a refusal that contradicts the screen.
 *
 * No clock: the load a choice starts is held by the test until the button has been pressed, so the page has
 * certainly not caught up (the slow server of the issue, every time), then let go.
 */

const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;

test.beforeEach(({ jsEnabled }) => {
  test.skip(!jsEnabled, "Without JavaScript a choice applies only through its Continue button, which reloads the page first.");
});

/**
 * Makes `choose` (a select's change), waits until the page's data load for it has started and is held, presses
 * `press`, then lets the held load go. Only GETs of the page's data (Remix's `.data` requests) under `path` are held.
 */
async function chooseAndPressAtOnce(page: Page, path: string, choose: () => Promise<unknown>, press: () => Promise<unknown>): Promise<void> {
  const held: Route[] = [];
  let holding = true;
  const matches = (url: URL) => url.pathname.startsWith(path) && url.pathname.endsWith(".data");
  const hold = (route: Route) => {
    if (holding && route.request().method() === "GET") held.push(route);
    else void route.fallback().catch(() => {});
  };
  await page.route(matches, hold);
  await choose();
  await expect.poll(() => held.length, { message: `the choice's load of ${path} starts` }).toBeGreaterThan(0);
  await press();
  holding = false;
  // The press's own navigation has interrupted the held load (the browser dropped it) or it goes on now.
  for (const route of held.splice(0)) await route.continue().catch(() => {});
  await page.unroute(matches, hold);
}

const typeSelect = (page: Page) => page.getByLabel("Source type", { exact: true });
const authenticate = (page: Page) => page.getByRole("button", { name: /^Authenticate/ }).click();

test("source type: Authenticate pressed right after choosing a type authenticates that type", async ({ page, user }) => {
  await login(page, user, { from: "/sources/add" });
  await page.getByLabel("Name", { exact: true }).fill("Raced source");
  await chooseAndPressAtOnce(
    page,
    "/sources/add",
    () => typeSelect(page).selectOption({ label: "Data Generator" }),
    () => authenticate(page),
  );
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await expect(page).toHaveURL(/\/sources\/add\/datagen$/);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(typeSelect(page)).toHaveValue("datagen");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Raced source");
});

test("source type: switching from one type to another and pressing Authenticate at once authenticates the one shown", async ({ page, user }) => {
  await login(page, user, { from: "/sources/add/zoom" });
  await expect(typeSelect(page)).toHaveValue("zoom");
  await chooseAndPressAtOnce(
    page,
    "/sources/add",
    () => typeSelect(page).selectOption({ label: "Data Generator" }),
    () => authenticate(page),
  );
  // Never Zoom's authorization, which the page's address still named.
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await expect(page).toHaveURL(/\/sources\/add\/datagen$/);
  await expect(typeSelect(page)).toHaveValue("datagen");
  await expect(page.getByRole("alert")).toHaveCount(0);
});

/**
 * Opens `path` with the page's scripts held, makes `choose` (the select changes; nothing runs it yet), then lets the
 * scripts go: JavaScript slow to arrive, every time.
 */
async function chooseBeforeScripts(page: Page, path: string, choose: () => Promise<unknown>): Promise<void> {
  const scripts: Route[] = [];
  let holding = true;
  const script = /\.js(\?|$)/;
  const hold = (route: Route) => (holding ? void scripts.push(route) : void route.fallback().catch(() => {}));
  await page.route(script, hold);
  await page.goto(path, { waitUntil: "commit" });
  await choose();
  holding = false;
  for (const route of scripts.splice(0)) await route.fallback().catch(() => {});
  await page.unroute(script, hold);
}

test("source type: a type chosen before the page's script has run is the one the page follows and authenticates", async ({ page, user }) => {
  await login(page, user, { from: "/sources" });
  await chooseBeforeScripts(page, "/sources/add/zoom", () => typeSelect(page).selectOption({ label: "Data Generator" }));
  // The page follows the choice on the screen once its script runs, and never puts Zoom back.
  await expect(page).toHaveURL(/\/sources\/add\/datagen$/);
  await expect(typeSelect(page)).toHaveValue("datagen");
  await authenticate(page);
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await expect(page).toHaveURL(/\/sources\/add\/datagen$/);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("source type: a type with authentication types, chosen and authenticated at once, uses the type the page preselects", async ({ page, user }) => {
  await login(page, user, { from: "/sources/add" });
  await chooseAndPressAtOnce(
    page,
    "/sources/add",
    () => typeSelect(page).selectOption({ label: "Gmail" }),
    () => authenticate(page),
  );
  await expect(page.getByText("Authenticated with Gmail")).toBeVisible();
  await expect(page).toHaveURL(/\/sources\/add\/gmail/);
  await expect(typeSelect(page)).toHaveValue("gmail");
  await expect(page.getByLabel("Authentication type", { exact: true })).toHaveValue("service_account");
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test.describe("connector", () => {
  const sourceSelect = (page: Page) => page.getByLabel("Source", { exact: true });
  const platformSelect = (page: Page) => page.getByLabel("Platform", { exact: true });
  const create = (page: Page) => page.getByRole("button", { name: "Create Connector" }).click();
  const banner = (page: Page) => page.getByRole("alert");

  async function seed(email: string) {
    return withDb(async (client) => {
      const ownerId = await userIdByEmail(client, email);
      const bound = await seedSource(client, ownerId, "Warehouse-bound calls");
      await client.query("UPDATE sources SET required_integration_categories = '{WAREHOUSE}' WHERE id = $1", [bound]);
      const plain = await seedSource(client, ownerId, "Plain calls");
      const none = await seedSource(client, ownerId, "Platformless calls", { company: "X", format: "nothing" });
      await seedLocalDestination(client, ownerId, "Folder A");
      return { bound, plain, none };
    });
  }

  test("a source chosen and Create pressed at once is judged by that source's rules, not the last one's", async ({ page, user, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/connectors" });
    const ids = await seed(user.email);
    // The page's rules are those of a source needing a platform; the source chosen next has none.
    await page.goto(`/connectors/add?source=${ids.plain}&name=Raced&frequency=daily`);
    await expect(platformSelect(page)).toHaveValue("");
    await chooseAndPressAtOnce(
      page,
      "/connectors/add",
      () => sourceSelect(page).selectOption(ids.none),
      () => create(page),
    );
    await expect(page.getByText("No compatible platforms found for this source.")).toBeVisible();
    await expect(sourceSelect(page)).toHaveValue(ids.none);
    // "Please select a platform" would contradict the screen: this source has none.
    await expect(banner(page)).not.toContainText("Please select a platform");
    await expect(platformSelect(page)).toHaveCount(0);
  });

  test("another source chosen and Create pressed at once does not ask for the last source's required destinations", async ({ page, user }) => {
    await login(page, user, { from: "/connectors" });
    const ids = await seed(user.email);
    await page.goto(`/connectors/add?source=${ids.bound}&platform=zoom&name=Raced+calls&frequency=daily`);
    await page.getByLabel(/Folder A/).check();
    await chooseAndPressAtOnce(
      page,
      "/connectors/add",
      () => sourceSelect(page).selectOption(ids.plain),
      () => create(page),
    );
    // What the screen showed when pressed: Plain calls, ZOOM, Folder A ticked; Plain calls requires no warehouse.
    await expect(page).toHaveURL(/\/connectors$/);
    const row = page.getByRole("row", { name: /Raced calls/ });
    await expect(row).toContainText("Plain calls");
    await expect(row).toContainText("Folder A");
  });

  test("a platform chosen and Create pressed at once carries the platform", async ({ page, user, allowConsoleErrors }) => {
    allowConsoleErrors(BAD_REQUEST);
    await login(page, user, { from: "/connectors" });
    const ids = await seed(user.email);
    await page.goto(`/connectors/add?source=${ids.plain}&name=Raced&frequency=daily`);
    await chooseAndPressAtOnce(
      page,
      "/connectors/add",
      () => platformSelect(page).selectOption({ label: "ZOOM" }),
      () => create(page),
    );
    // The server had the platform: it asks for the destinations it brings, which the page now shows.
    await expect(banner(page)).toHaveText("Please select the required destinations.");
    await expect(platformSelect(page)).toHaveValue("zoom");
    await expect(page.getByRole("group", { name: "Destinations" })).toContainText("Folder A");
  });
});

test("connector: a source chosen before the page's script has run brings that source's platforms", async ({ page, user }) => {
  await login(page, user, { from: "/connectors" });
  const plain = await withDb(async (client) => {
    const ownerId = await userIdByEmail(client, user.email);
    const id = await seedSource(client, ownerId, "Plain calls");
    await seedSource(client, ownerId, "Platformless calls", { company: "X", format: "nothing" });
    await seedLocalDestination(client, ownerId, "Folder A");
    return id;
  });
  const source = page.getByLabel("Source", { exact: true });
  await chooseBeforeScripts(page, "/connectors/add", () => source.selectOption(plain));
  // The platforms of the source on the screen, not the empty form the page was drawn with.
  await expect(page.getByLabel("Platform", { exact: true })).toBeVisible();
  await expect(source).toHaveValue(plain);
  await expect(page.getByRole("group", { name: "Destinations" })).toHaveCount(0);
  await page.getByLabel("Platform", { exact: true }).selectOption({ label: "ZOOM" });
  await expect(page.getByRole("group", { name: "Destinations" })).toContainText("Folder A");
});

test("destination type: a type chosen before the page's script has run draws that type's form", async ({ page, user }) => {
  await login(page, user, { from: "/destinations" });
  await chooseBeforeScripts(page, "/destinations/add", () => page.getByLabel("Integration type", { exact: true }).selectOption({ label: "Local folder" }));
  await expect(page).toHaveURL(/[?&]type=local/);
  await expect(page.getByLabel("Integration type", { exact: true })).toHaveValue("local");
  await page.getByLabel("Name").fill("Early folder");
  await page.getByRole("button", { name: "Create Destination" }).click();
  await expect(page).toHaveURL(/\/destinations$/);
  await expect(page.getByRole("row", { name: /Early folder/ })).toContainText("Local folder");
});

test("destination type: Create Destination pressed right after choosing the type creates that type", async ({ page, user }) => {
  await login(page, user, { from: "/destinations/add" });
  await page.getByLabel("Name").fill("Raced folder");
  await chooseAndPressAtOnce(
    page,
    "/destinations/add",
    () => page.getByLabel("Integration type", { exact: true }).selectOption({ label: "Local folder" }),
    () => page.getByRole("button", { name: "Create Destination" }).click(),
  );
  await expect(page).toHaveURL(/\/destinations$/);
  await page.getByRole("row", { name: /Raced folder/ }).getByRole("link", { name: "Raced folder" }).click();
  await expect(page.locator("dl")).toContainText("Local folder");
});

/** Signs `user` in with a connector, and fills the transform's first step to its template step. */
async function toTemplateStep(page: Page, user: TestUser, name: string): Promise<void> {
  await login(page, user, { from: "/transforms" });
  await withDb(async (client) => seedConnector(client, await userIdByEmail(client, user.email), "Sales calls"));
  await page.goto("/transforms/add");
  await page.getByLabel("Transform name").fill(name);
  await page.getByLabel("Connector", { exact: true }).selectOption({ label: "Sales calls" });
  await page.getByLabel("Use Templates").check();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
}

test("transform template: a category chosen before the page's script has run shows that category's templates", async ({ page, user }) => {
  await toTemplateStep(page, user, "Early transform");
  await expect(page).toHaveURL(/\/transforms\/templates\/select/);
  await chooseBeforeScripts(page, "/transforms/templates/select", () => page.getByLabel("Category", { exact: true }).selectOption({ label: "Coaching" }));
  await expect(page).toHaveURL(/category=coaching/);
  await expect(page.getByLabel("Category", { exact: true })).toHaveValue("coaching");
});

test("transform template: Continue pressed right after choosing a template continues with that template", async ({ page, user }) => {
  await toTemplateStep(page, user, "Raced transform");
  await expect(page.getByLabel("Template", { exact: true })).toHaveValue("topic_modeling");
  await chooseAndPressAtOnce(
    page,
    "/transforms/templates/select",
    () => page.getByLabel("Template", { exact: true }).selectOption({ label: "Sentiment over time" }),
    () => page.getByRole("button", { name: "Continue", exact: true }).click(),
  );
  await expect(page).toHaveURL(/\/transforms\/templates\/permissions$/);
  await expect(page.getByRole("main")).toContainText("Give Sentiment over time the access it needs");
});
