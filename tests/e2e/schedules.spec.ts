import type { Page } from "@playwright/test";
import { CronExpressionParser } from "cron-parser";
import { detailValue, expect, expectAccessible, expectNoHorizontalOverflow, login, test } from "./fixtures";
import { APP_URL } from "./env";
import { seedScheduled as seed } from "../support/records";

/**
 * Issue 27, schedules, JS on and off: a connector's schedule page reached from its details ("Change schedule"), a
 * cron expression in America/New_York whose next run lies across a daylight-saving change, manual only shown as
 * such in the list, a transform's schedule, time zones, the live check of an expression as it is typed (JS), the
 * page at phone width. The reader's zone is Europe/Paris (browser and cookie alike). The server's rules (a bad or
 * too frequent expression refused at its field with what was typed kept; another user's schedule pages answering
 * 404) are checked over HTTP in tests/http/schedules.spec.ts.
 */

const BAD_REQUEST = /Failed to load resource: the server responded with a status of 400/;
const READER_ZONE = "Europe/Paris";
test.use({ timezoneId: READER_ZONE });

async function readerZone(page: Page) {
  await page.context().addCookies([{ name: "tz", value: encodeURIComponent(READER_ZONE), url: APP_URL }]);
}

const kind = (page: Page, label: string | RegExp) => page.getByRole("radio", { name: label });
const expression = (page: Page) => page.getByRole("textbox", { name: "Cron expression", exact: true });
const every = (page: Page) => page.getByRole("textbox", { name: "Every", exact: true });
const timeZone = (page: Page) => page.getByRole("combobox", { name: "Time zone", exact: true });

test("a cron schedule in New York: its next run across the March change, on the form, the details and the list", async ({ page, user, jsEnabled }) => {
  await readerZone(page);
  await login(page, user);
  const { connectorId } = await seed(user.email, "Weekly export");
  await page.goto(`/connectors/details/${connectorId}`);
  await expect(page.getByTestId("schedule-words")).toHaveText("Daily");
  await page.getByRole("link", { name: "Change schedule" }).click();
  await expect(page).toHaveURL(new RegExp(`/connectors/details/${connectorId}/schedule$`));
  await expect(page.getByRole("heading", { name: "Schedule", level: 1 })).toBeVisible();
  await expect(kind(page, /^Its frequency/)).toBeChecked();
  // The time zone defaults to the reader's (its select is hidden with JavaScript until a kind with a time zone is chosen).
  await expect(page.locator('select[name="time_zone"]')).toHaveValue(READER_ZONE);
  // Without JavaScript every kind's fields show; with it, only the chosen kind's.
  if (jsEnabled) await expect(expression(page)).toBeHidden();
  else await expect(expression(page)).toBeVisible();

  await kind(page, "A cron expression").check();
  await expect(expression(page)).toBeVisible();
  await expect(timeZone(page)).toBeVisible();
  if (jsEnabled) await expect(every(page)).toBeHidden();
  // 09:00 on 14 March: New York is on daylight time by then (UTC-4), though it is on standard time (UTC-5) now.
  await expression(page).fill("0 9 14 3 *");
  await timeZone(page).selectOption("America/New_York");
  const expected = CronExpressionParser.parse("0 9 14 3 *", { tz: "America/New_York", currentDate: new Date() }).next().toDate().toISOString();
  expect(expected).toMatch(/-03-14T13:00:00\.000Z$/);
  // The next run before saving: as it is typed with JavaScript, by "Show next run" without.
  if (!jsEnabled) await page.getByRole("button", { name: "Show next run" }).click();
  await expect(page.getByTestId("next-run").locator("time")).toHaveAttribute("datetime", expected);
  await expect(page.getByTestId("next-run")).toContainText("(not saved yet)");
  await expect(page.getByTestId("next-run")).toContainText("2:00:00 PM");
  await expect(expression(page)).toHaveValue("0 9 14 3 *");

  await page.getByRole("button", { name: "Save schedule" }).click();
  await expect(page.getByText("Schedule saved.")).toBeVisible();
  await expect(page.getByTestId("next-run").locator("time")).toHaveAttribute("datetime", expected);
  await expect(page.getByTestId("next-run")).not.toContainText("not saved yet");
  await expect(kind(page, "A cron expression")).toBeChecked();
  await expect(expression(page)).toHaveValue("0 9 14 3 *");
  await expectAccessible(page);

  await page.getByRole("link", { name: "Weekly export" }).click();
  // The expression in words (issue 35, defect 8), and no Frequency row beside a schedule of its own.
  await expect(page.getByTestId("schedule-words")).toHaveText("At 09:00, on day 14 of the month, only in March (America/New_York)");
  await expect(page.locator("dl dt").getByText("Frequency", { exact: true })).toHaveCount(0);
  // In the reader's zone: 13:00 UTC is 2:00 PM in Paris (still on standard time on 14 March).
  await expect(detailValue(page, "Next run").locator("time")).toHaveAttribute("datetime", expected);
  await expect(detailValue(page, "Next run")).toContainText("Mar 14");
  await expect(detailValue(page, "Next run")).toContainText("2:00:00 PM");
  await page.goto("/connectors");
  await expect(page.getByRole("row", { name: /Weekly export/ }).locator(`time[datetime="${expected}"]`)).toBeVisible();
});

test("manual only: never scheduled, and the list says so; a transform's schedule in words", async ({ page, user }) => {
  await readerZone(page);
  await login(page, user);
  const { connectorId, transformId } = await seed(user.email, "Only by hand");
  await page.goto(`/connectors/details/${connectorId}/schedule`);
  await kind(page, "Manual only").check();
  await page.getByRole("button", { name: "Save schedule" }).click();
  await expect(page.getByText("Schedule saved.")).toBeVisible();
  await expect(page.getByTestId("next-run")).toHaveText("Manual only: it never runs on a schedule.");
  await page.goto(`/connectors/details/${connectorId}`);
  await expect(page.getByTestId("schedule-words")).toHaveText("Manual only");
  await expect(detailValue(page, "Next run")).toHaveText("Manual only");
  await page.goto("/connectors");
  await expect(page.getByRole("row", { name: /Only by hand/ }).getByRole("cell").last()).toHaveText("Manual only");

  await page.goto(`/transforms/details/${transformId}`);
  await page.getByRole("link", { name: "Change schedule" }).click();
  await expect(page).toHaveURL(new RegExp(`/transforms/details/${transformId}/schedule$`));
  await kind(page, "Every few minutes or hours").check();
  await every(page).fill("30");
  await page.getByRole("combobox", { name: "Unit", exact: true }).selectOption("minutes");
  await page.getByRole("button", { name: "Save schedule" }).click();
  await expect(page.getByText("Schedule saved.")).toBeVisible();
  const next = await page.getByTestId("next-run").locator("time").getAttribute("datetime");
  expect(new Date(next!).getTime() - Date.now()).toBeLessThanOrEqual(30 * 60_000);
  await page.goto(`/transforms/details/${transformId}`);
  await expect(page.getByTestId("schedule-words")).toHaveText("Every 30 minutes");

  // Back to the frequency's slot.
  await page.goto(`/connectors/details/${connectorId}/schedule`);
  await kind(page, /^Its frequency/).check();
  await page.getByRole("button", { name: "Save schedule" }).click();
  await expect(page.getByText("Schedule saved.")).toBeVisible();
  await page.goto(`/connectors/details/${connectorId}`);
  await expect(page.getByTestId("schedule-words")).toHaveText("Daily");
});

test("the schedule page at phone width", async ({ page, user }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await readerZone(page);
  await login(page, user);
  const { connectorId } = await seed(user.email, "Pocket");
  await page.goto(`/connectors/details/${connectorId}/schedule`);
  await expect(page.getByRole("button", { name: "Save schedule" })).toBeVisible();
  await expectNoHorizontalOverflow(page);
});

test("time zones: current names with their offsets, and the interval rule said the right way round", async ({ page, user, jsEnabled, allowConsoleErrors }) => {
  allowConsoleErrors(BAD_REQUEST);
  await readerZone(page);
  await login(page, user);
  const { connectorId } = await seed(user.email, "Zoned");
  await page.goto(`/connectors/details/${connectorId}/schedule`);
  await expect(page.getByRole("radio", { name: /Every few minutes or hours/ })).toHaveAccessibleName(/At least 15 minutes apart\./);
  await expect(page.getByRole("main")).not.toContainText("At most every 15 minutes");
  const zones = page.locator('select[name="time_zone"] option');
  // Offsets that never change (no daylight saving), so the test does not depend on the date.
  await expect(zones.filter({ hasText: /^Asia\/Kolkata \(UTC\+05:30\)$/ })).toHaveCount(1);
  await expect(zones.filter({ hasText: /^UTC \(UTC\+00:00\)$/ })).toHaveCount(1);
  await expect(zones.filter({ hasText: /^Europe\/Kyiv \(UTC[+-]\d\d:\d\d\)$/ })).toHaveCount(1);
  const values = await zones.evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(values).not.toContain("Asia/Calcutta");
  expect(values).not.toContain("Europe/Kiev");
  expect(values).toContain("Asia/Kolkata");
  // Chosen and saved under its current name, it reads so on the details.
  await kind(page, "Every day at a time").check();
  await page.getByLabel("Time of day").fill("07:30");
  await timeZone(page).selectOption("Asia/Kolkata");
  await page.getByRole("button", { name: "Save schedule" }).click();
  await expect(page.getByText("Schedule saved.")).toBeVisible();
  await expect(timeZone(page)).toHaveValue("Asia/Kolkata");
  await page.goto(`/connectors/details/${connectorId}`);
  await expect(page.getByTestId("schedule-words")).toHaveText("Daily at 07:30 (Asia/Kolkata)");
  if (jsEnabled) {
    // With JavaScript the live preview marks the field as it is typed.
    await page.goto(`/connectors/details/${connectorId}/schedule`);
    await kind(page, "A cron expression").check();
    await expression(page).fill("0 9 * 13 *");
    await expect(page.locator("#schedule-expression-error")).toHaveText("This is not a valid cron expression: the month is 13; it goes from 1 to 12.");
    await expect(expression(page)).toHaveAttribute("aria-invalid", "true");
  }
});
