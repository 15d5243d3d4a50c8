import type { Locator, Page } from "@playwright/test";
import { expect, login, test } from "./fixtures";

/**
 * Issue 26: every create flow completes with the keyboard alone, JS on and off. Nothing here clicks or fills:
 * after the first page load, only Tab, Shift+Tab, typing, Enter, Space and the arrow keys move the user on, from
 * each list's create link to the new record. The locators only say which control the keys must reach.
 *
 * A data generator source, a local folder destination (with DuckDB), a connector from them (synced with its
 * Sync now), and a transform from a template on that connector.
 */

/** How many Tab presses a control may be away: the top bar, the sidebar and a long form. */
const MAX_TABS = 60;

/**
 * Moves the keyboard focus onto `target` (or onto any of the elements it matches) with Tab, or Shift+Tab when it
 * lies before the focused element, and fails when the keys never reach it (not focusable, or skipped over).
 */
async function tabTo(page: Page, target: Locator): Promise<void> {
  await expect(target.first()).toBeVisible();
  for (let i = 0; i < MAX_TABS; i++) {
    const where = await target.evaluateAll((elements) => {
      const active = document.activeElement;
      if (active && elements.some((element) => element === active)) return "here";
      if (!active || active === document.body) return "after";
      return active.compareDocumentPosition(elements[0]!) & Node.DOCUMENT_POSITION_FOLLOWING ? "after" : "before";
    });
    if (where === "here") return;
    await page.keyboard.press(where === "after" ? "Tab" : "Shift+Tab");
  }
  throw new Error(`The keyboard never reached ${target} in ${MAX_TABS} presses of Tab`);
}

/** Presses Enter on `target` once the keyboard has reached it (a link follows, a button submits its form). */
async function activate(page: Page, target: Locator): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press("Enter");
}

/** Types into a text field, reached by Tab. */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.type(text);
  await expect(field).toHaveValue(text);
}

/**
 * Chooses the option whose text matches `option` with the arrow keys, one option at a time, as a keyboard user
 * does. A select whose choice reloads the form's data does so with JavaScript at each step: the focus must stay on
 * the select (issue 26), and `settled` says when the page has followed. Without JavaScript the choice applies by
 * the Continue button beside it (its accessible name says what it continues with: `what`).
 */
async function choose(page: Page, select: Locator, option: RegExp, opts: { jsEnabled: boolean; what?: string; settled?: (value: string) => RegExp }): Promise<void> {
  await tabTo(page, select);
  const options = await select.locator("option").evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent ?? "" })));
  const target = options.findIndex((o) => option.test(o.text));
  expect(target, `an option matching ${option} in ${options.map((o) => o.text).join(", ")}`).toBeGreaterThanOrEqual(0);
  for (let step = 0; step < options.length; step++) {
    const current = await select.evaluate((s) => (s as HTMLSelectElement).selectedIndex);
    if (current === target) break;
    await page.keyboard.press(current < target ? "ArrowDown" : "ArrowUp");
    await expect.poll(() => select.evaluate((s) => (s as HTMLSelectElement).selectedIndex)).not.toBe(current);
    const value = await select.inputValue();
    if (opts.jsEnabled && opts.settled) await expect(page).toHaveURL(opts.settled(value));
    await expect(select, "the select keeps the keyboard focus while the page follows the choice").toBeFocused();
  }
  await expect(select).toHaveValue(options[target]!.value);
  if (!opts.jsEnabled && opts.what) {
    await activate(page, page.getByRole("button", { name: `Continue with this ${opts.what}` }));
    if (opts.settled) await expect(page).toHaveURL(opts.settled(options[target]!.value));
  }
}

/** Ticks a checkbox with Space. */
async function tick(page: Page, checkbox: Locator): Promise<void> {
  await tabTo(page, checkbox);
  await page.keyboard.press("Space");
  await expect(checkbox).toBeChecked();
}

/** Chooses a radio button: Tab enters its group (on the checked one, or the first), the arrows move, Space checks. */
async function chooseRadio(page: Page, radio: Locator): Promise<void> {
  const name = await radio.getAttribute("name");
  const group = page.locator(`input[type="radio"][name="${name}"]`);
  await tabTo(page, group);
  for (let i = 0; i < (await group.count()) && !(await radio.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("ArrowDown");
  await expect(radio).toBeFocused();
  if (!(await radio.isChecked())) await page.keyboard.press("Space");
  await expect(radio).toBeChecked();
}

const main = (page: Page) => page.getByRole("main");

test("source, destination, connector and transform, each created with the keyboard alone", async ({ page, user, jsEnabled }) => {
  test.setTimeout(240_000);
  await login(page, user, { from: "/sources" });
  await expect(page.getByText("No Sources Found")).toBeVisible();

  // A data generator source.
  await activate(page, main(page).locator('a[href="/sources/add"]').first());
  await expect(page.getByRole("heading", { name: "Create Source" })).toBeVisible();
  await typeInto(page, page.getByLabel("Name", { exact: true }), "Keyboard meetings");
  await choose(page, page.getByLabel("Source type", { exact: true }), /^Data Generator$/, { jsEnabled, what: "source type", settled: (type) => new RegExp(`/sources/add/${type}`) });
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Keyboard meetings");
  await activate(page, page.getByRole("button", { name: "Authenticate" }));
  await expect(page.getByText("Authenticated with Data Generator")).toBeVisible();
  await activate(page, page.getByRole("button", { name: "Create", exact: true }));
  await expect(page).toHaveURL(/\/sources$/);
  await expect(main(page).getByRole("link", { name: "Keyboard meetings" })).toBeVisible();

  // A local folder destination.
  await activate(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Destinations" }));
  await expect(page).toHaveURL(/\/destinations$/);
  await activate(page, main(page).locator('a[href="/destinations/add"]').first());
  await expect(page.getByRole("heading", { name: "Create Destination" })).toBeVisible();
  await typeInto(page, page.getByLabel("Name", { exact: true }), "Keyboard folder");
  await choose(page, page.getByLabel("Integration type", { exact: true }), /^Local folder$/, { jsEnabled, what: "integration type", settled: (type) => new RegExp(`[?&]type=${type}`) });
  await expect(page.getByRole("heading", { name: "Local folder" })).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Keyboard folder");
  await activate(page, page.getByRole("button", { name: "Create Destination" }));
  await expect(page).toHaveURL(/\/destinations$/);
  await expect(main(page).getByRole("link", { name: "Keyboard folder" })).toBeVisible();

  // A connector from them, then its first sync.
  await activate(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Connectors" }));
  await expect(page).toHaveURL(/\/connectors$/);
  await activate(page, main(page).locator('a[href="/connectors/add"]').first());
  await expect(page.getByRole("heading", { name: "Create Connector" })).toBeVisible();
  await typeInto(page, page.getByLabel("Connector name", { exact: true }), "Keyboard sync");
  await choose(page, page.getByLabel("Source", { exact: true }), /Keyboard meetings/, { jsEnabled, what: "source", settled: () => /[?&]source=/ });
  await choose(page, page.getByLabel("Platform", { exact: true }), /^ZOOM$/i, { jsEnabled, what: "platform", settled: () => /[?&]platform=zoom/ });
  await tick(page, page.getByRole("group", { name: "Destinations" }).getByRole("checkbox", { name: /Keyboard folder/ }));
  await choose(page, page.getByLabel("Frequency", { exact: true }), /^Daily$/, { jsEnabled });
  await activate(page, page.getByRole("button", { name: "Create Connector" }));
  await expect(page).toHaveURL(/\/connectors$/);
  await activate(page, main(page).getByRole("link", { name: "Keyboard sync" }));
  await expect(page).toHaveURL(/\/connectors\/details\//);
  await activate(page, page.getByRole("button", { name: "Sync now" }));
  await expect(page.locator("tbody tr[data-run-status]").first()).toHaveAttribute("data-run-status", "succeeded", { timeout: 60_000 });

  // A transform from the default template on that connector.
  await activate(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transforms" }));
  await expect(page).toHaveURL(/\/transforms$/);
  await activate(page, main(page).locator('a[href="/transforms/add"]').first());
  await expect(page.getByRole("heading", { name: "Create Transform" })).toBeVisible();
  await typeInto(page, page.getByLabel("Transform name", { exact: true }), "Keyboard topics");
  await choose(page, page.getByLabel("Connector", { exact: true }), /Keyboard sync/, { jsEnabled, what: "connector", settled: () => /\/transforms\/add/ });
  await chooseRadio(page, page.getByRole("radio", { name: /Use Templates/ }));
  await activate(page, page.getByRole("button", { name: "Continue", exact: true }));
  await expect(page).toHaveURL(/\/transforms\/templates\/select/);
  await expect(page.getByRole("heading", { name: "Choose a Template" })).toBeVisible();
  await activate(page, page.getByRole("button", { name: "Continue", exact: true }));
  await expect(page).toHaveURL(/\/transforms\/templates\/permissions/);
  for (const step of [1, 2, 3]) {
    await expect(page.getByText(`Step ${step} of 4`)).toBeVisible();
    await activate(page, page.getByRole("button", { name: "Next step" }));
  }
  await expect(page.getByText("Step 4 of 4")).toBeVisible();
  await activate(page, page.getByRole("button", { name: "Continue to configuration" }));
  await expect(page).toHaveURL(/\/transforms\/templates\/config\//);
  await activate(page, page.getByRole("button", { name: "Create Transform" }));
  await expect(page).toHaveURL(/\/transforms\/details\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Keyboard topics" })).toBeVisible();
});
