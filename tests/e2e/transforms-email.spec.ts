import type { Locator } from "@playwright/test";
import { createEmailTransform } from "../support/email-template-wizard";
import { seedGmailConnector, userIdByEmail, withDb } from "./db";
import { detailValue, expect, login, syncNow, test } from "./fixtures";

/**
 * Issue 37 item 4, JS on and off: a Gmail connector synced from the fake Google (three mailboxes of acme.example, each
 * with messages to and from customers at globex.example, one of them a reply) into a local folder, and a transform
 * made from each e-mail template through the whole wizard (details → template → permissions → configure → preview →
 * create). The wizard offers such a connector the E-mail insights only; the first run writes both of the template's
 * result tables, with real rows.
 */

interface Case {
  id: string;
  name: string;
  type: string;
  /** The template's own inputs on the configuration page. */
  inputs: string[];
  /** What its result tables hold after the first run (the tables in the template's order). */
  results(tables: Locator): Promise<void>;
}

const cellsOf = (table: Locator) => table.locator("tbody td");

const CASES: Case[] = [
  {
    id: "email_response_time",
    name: "E-mail response time",
    type: "E-mail Response Time",
    inputs: ["Internal domains", "Longest reply (hours)"],
    async results(tables) {
      await expect(tables.first().locator("h3")).toHaveText("Reply times per thread");
      await expect(tables.first().locator("[data-table-name]")).toHaveText(/_thread_response_times$/);
      // Three threads per mailbox: the one with a customer's reply, and two of one message each.
      await expect(tables.first()).toContainText("of 9 rows");
      const correspondents = tables.nth(1);
      await expect(correspondents).toContainText("customer0@globex.example");
      await expect(correspondents).toContainText("ops@globex.example");
      await expect(correspondents).not.toContainText("finance@acme.example");
      // customer0 answered 18 hours less a minute (1,079 minutes) after the message before it, in every mailbox.
      await expect(correspondents.locator("tbody tr", { hasText: "customer0@globex.example" })).toContainText("17h 59m");
    },
  },
  {
    id: "email_sentiment",
    name: "E-mail sentiment over time",
    type: "E-mail Sentiment",
    inputs: ["Period", "Internal domains", "Senders"],
    async results(tables) {
      await expect(tables.first().locator("h3")).toHaveText("E-mail sentiment per period");
      await expect(tables.first().locator("[data-table-name]")).toHaveText(/_email_sentiment$/);
      await expect(tables.first().locator("tbody tr").first()).toBeVisible();
      expect((await cellsOf(tables.first()).allTextContents()).some((text) => /^\d{4}-\d\d-\d\d$/.test(text.trim()))).toBe(true);
      await expect(tables.nth(1)).toContainText("of 9 rows");
      await expect(tables.nth(1)).toContainText(/Improving|One message/);
    },
  },
  {
    id: "email_correspondents",
    name: "Who writes to whom",
    type: "E-mail Correspondents",
    inputs: ["Internal domains", "Count copied recipients", "Top pairs and domains"],
    async results(tables) {
      await expect(tables.first().locator("h3")).toHaveText("Who writes to whom");
      await expect(tables.first().locator("[data-table-name]")).toHaveText(/_email_pairs$/);
      await expect(tables.first()).toContainText(/Inbound|Outbound/);
      const domains = tables.nth(1);
      // acme.example is the mailboxes' own: globex.example is the one external domain.
      await expect(domains).toContainText("of 1 rows");
      await expect(domains.locator("tbody tr").first().locator("td").first()).toHaveText("1");
      await expect(domains).toContainText("globex.example");
    },
  },
];

for (const c of CASES) {
  test(`${c.name}: a Gmail connector's transform through the wizard, its first run and its results`, async ({ page, user, jsEnabled }) => {
    test.setTimeout(180_000);
    await login(page, user, { from: "/transforms" });
    const { connectorId } = await withDb(async (client) => seedGmailConnector(client, await userIdByEmail(client, user.email), "Team mail"));
    await syncNow(page, connectorId);

    await createEmailTransform(page, jsEnabled, { connector: "Team mail", name: `${c.name} report`, templateId: c.id, templateName: c.name, type: c.type, inputs: c.inputs, templates: CASES.map((x) => x.name) });

    await expect(page).toHaveURL(/\/transforms\/details\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: `${c.name} report` })).toBeVisible();
    await expect(detailValue(page, "Type")).toHaveText(c.type);
    const run = page.locator("tbody tr[data-run-status]").first();
    await expect(run).toHaveAttribute("data-run-status", "succeeded", { timeout: 90_000 });
    const tables = page.locator("[data-result-table]");
    await expect(tables).toHaveCount(2);
    for (const table of await tables.all()) await expect(table.locator("tbody tr").first()).toBeVisible();
    // Words and dates, never JSON or the warehouse's ISO text.
    const cells = await cellsOf(tables).allTextContents();
    expect(cells.filter((text) => text.trim().startsWith("[") || /\d{4}-\d\d-\d\d[T ]\d\d:\d\d/.test(text))).toEqual([]);
    await c.results(tables);
    // Its chart leads the results, drawn on the server: a picture with a labelled mark per point.
    const chart = page.getByRole("region", { name: "Results" }).locator("figure[data-chart]");
    await expect(chart).toHaveCount(1);
    await expect(chart.getByRole("img")).toBeVisible();
    expect(await chart.getByRole("img").locator("[aria-label]").count()).toBeGreaterThan(1);
  });
}
