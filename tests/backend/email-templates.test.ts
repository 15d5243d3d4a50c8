import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalWriter } from "../../backend/integrations/destinations/local/index.js";
import { LocalWarehouse } from "../../backend/integrations/destinations/local/warehouse.js";
import { PostgresWarehouse } from "../../backend/integrations/destinations/postgres/warehouse.js";
import { PostgresWriter } from "../../backend/integrations/destinations/postgres/writer.js";
import type { PostgresTarget } from "../../backend/integrations/destinations/postgres/connect.js";
import { userPostgresDatabase } from "../support/user-postgres.js";
import type { Warehouse } from "../../backend/integrations/destinations/warehouse.js";
import type { DestinationWriter } from "../../backend/integrations/destinations/writer.js";
import { gmailPlugin } from "../../backend/integrations/sources/gmail/plugin.js";
import { batchMaker, writeRecords } from "../../backend/sync/index.js";
import { allDefinitions } from "../../backend/transforms/catalogue.js";
import { programOf } from "../../backend/transforms/programs/index.js";
import { runProgram, type ProgramOutput } from "../support/programs.js";
import { EMAIL_SAMPLE as MESSAGES } from "../support/emails.js";

/**
 * The e-mail templates end to end below the HTTP layer: Gmail messages go through the Gmail plug-in's records and the
 * sync's writeRecords into a local (DuckDB) warehouse and a PostgreSQL one, and each e-mail program reads them back
 * with a scan. The numbers are worked out by hand (see tests/unit/email-analysis.test.ts for the same mailbox): sam's
 * thread with Ann of Globex (Bob of Initech copied once), his thread with Carl of Globex, and a message of Dave of
 * Initech without a thread. Two rows per scan batch must give what one batch gives, and both warehouses the same.
 */

const SOURCE = "8c1e2f3a-4b5c-4d6e-8f70-112233445566";
const RUN = { id: "email-run", at: new Date("2026-03-20T06:00:00.000Z") };
const EMAIL_TEMPLATES = ["email_response_time", "email_sentiment", "email_correspondents"];

/** A value as JSON holds it the same whichever warehouse it was read from. */
const plain = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

/** Each output's rows in key order, as plain values. */
function canonical(outputs: ProgramOutput[]): Record<string, Record<string, unknown>[]> {
  return Object.fromEntries(
    outputs.map((o) => {
      const keyOf = (row: Record<string, unknown>) => JSON.stringify(o.key.map((k) => plain(row[k])));
      const rows = [...o.rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
      return [o.suffix, rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)])))];
    }),
  );
}

async function run(templateId: string, warehouse: Warehouse, batchRows: number, inputs: Record<string, unknown> = {}) {
  return canonical(await runProgram(templateId, { warehouse, sourceId: SOURCE, platforms: [], batchRows }, RUN, inputs));
}

async function load(writer: DestinationWriter): Promise<void> {
  try {
    await writeRecords([{ name: "warehouse", writer }], MESSAGES, batchMaker(gmailPlugin, { platform: "gmail", sourceId: SOURCE }));
  } finally {
    await writer.close();
  }
}

const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-email-"));
let target: PostgresTarget;
let drop: () => Promise<void>;
let local: Warehouse;
let postgres: Warehouse;

beforeAll(async () => {
  ({ target, drop } = await userPostgresDatabase(inject("pgAdminUrl"), "email"));
  await load(new LocalWriter(folder));
  await load(new PostgresWriter(target));
  local = new LocalWarehouse(new LocalWriter(folder));
  postgres = new PostgresWarehouse(async () => target);
}, 60_000);

afterAll(async () => {
  await local?.close();
  await postgres?.close();
  await drop?.();
  rmSync(folder, { recursive: true, force: true });
});

describe("the e-mail templates over synced Gmail messages", () => {
  it("are in the catalogue, each with a program that reads email_messages", () => {
    const email = allDefinitions().filter((d) => programOf(d.id)?.stream === "email_messages");
    expect(email.map((d) => d.id)).toEqual(EMAIL_TEMPLATES);
    for (const d of email) expect(d.category).toBe("email_insights");
  });

  it("E-mail response time: one row per thread and per correspondent", async () => {
    const out = await run("email_response_time", local, 5_000);
    expect(out.thread_response_times!.map((r) => r.thread_id)).toEqual(["m9", "t1", "t2"]);
    expect(out.thread_response_times![1]).toEqual({
      thread_id: "t1",
      mailbox: "sam@acme.example",
      subject: "Demo",
      messages: 5,
      participants: 3,
      first_message_at: "2026-03-02T09:00:00.000Z",
      last_message_at: "2026-03-03T13:00:00.000Z",
      replies_from_us: 2,
      replies_from_them: 1,
      avg_reply_minutes_us: 765,
      median_reply_minutes_us: 765,
      avg_reply_minutes_them: 120,
      median_reply_minutes_them: 120,
      run_id: RUN.id,
      computed_at: RUN.at.toISOString(),
    });
    expect(out.thread_response_times![2]).toMatchObject({ messages: 3, participants: 2, replies_from_us: 1, replies_from_them: 1, avg_reply_minutes_us: 30, median_reply_minutes_them: 30 });
    expect(out.thread_response_times![0]).toMatchObject({ messages: 1, replies_from_us: 0, replies_from_them: 0, avg_reply_minutes_us: null });
    expect(out.correspondent_response_times!.map((r) => [r.correspondent, r.messages_received, r.messages_sent, r.threads, r.our_replies, r.avg_our_reply_minutes, r.their_replies, r.median_their_reply_minutes])).toEqual([
      ["ann@globex.example", 3, 2, 1, 2, 765, 1, 120],
      ["bob@initech.example", 0, 1, 1, 0, null, 0, null],
      ["carl@globex.example", 1, 2, 1, 1, 30, 1, 30],
      ["dave@initech.example", 1, 0, 1, 0, null, 0, null],
    ]);
    expect(out.correspondent_response_times![0]).toMatchObject({ name: "Ann Buyer", domain: "globex.example", run_id: RUN.id, computed_at: RUN.at.toISOString() });
    // Replies later than 10 hours start the conversation again: Sam's answer a day later is no reply.
    const short = await run("email_response_time", local, 5_000, { max_reply_hours: 10 });
    expect(short.thread_response_times![1]).toMatchObject({ replies_from_us: 1, avg_reply_minutes_us: 90 });
  });

  it("E-mail sentiment over time: per week and per thread, own words only", async () => {
    const out = await run("email_sentiment", local, 5_000);
    expect(out.email_sentiment).toEqual([
      { period_start: "2026-03-02", messages: 8, threads: 2, avg_sentiment: 0.375, positive_share: 0.25, negative_share: 0.5, granularity: "week", run_id: RUN.id, computed_at: RUN.at.toISOString() },
      { period_start: "2026-03-09", messages: 1, threads: 1, avg_sentiment: 3, positive_share: 1, negative_share: 0, granularity: "week", run_id: RUN.id, computed_at: RUN.at.toISOString() },
    ]);
    expect(out.thread_sentiment!.map((r) => [r.thread_id, r.messages, r.avg_sentiment, r.first_sentiment, r.last_sentiment, r.sentiment_trend, r.trend])).toEqual([
      ["m9", 1, 3, 3, 3, 0, "One message"],
      ["t1", 5, 1.6, 6, -1, -2.3, "Worsening"],
      ["t2", 3, -1.6667, 0, 0, 0, "Steady"],
    ]);
    const days = await run("email_sentiment", local, 5_000, { granularity: "day", senders: "internal" });
    expect(days.email_sentiment!.map((p) => [p.period_start, p.messages, p.avg_sentiment])).toEqual([
      ["2026-03-02", 1, 7],
      ["2026-03-03", 1, -1],
      ["2026-03-04", 2, 0],
    ]);
  });

  it("Who writes to whom: the busiest pairs and external domains", async () => {
    const out = await run("email_correspondents", local, 5_000, { top_n: 3 });
    expect(out.email_pairs!.map((p) => [p.from_address, p.to_address, p.direction, p.messages, p.threads])).toEqual([
      ["ann@globex.example", "sam@acme.example", "Inbound", 3, 1],
      ["sam@acme.example", "ann@globex.example", "Outbound", 2, 1],
      ["sam@acme.example", "carl@globex.example", "Outbound", 2, 1],
    ]);
    expect(out.email_domains).toEqual([
      { rank: 1, domain: "globex.example", messages: 8, messages_from: 4, messages_to: 4, correspondents: 2, threads: 2, first_message_at: "2026-03-02T09:00:00.000Z", last_message_at: "2026-03-04T09:00:00.000Z", run_id: RUN.id, computed_at: RUN.at.toISOString() },
      { rank: 2, domain: "initech.example", messages: 2, messages_from: 1, messages_to: 1, correspondents: 2, threads: 2, first_message_at: "2026-03-02T10:30:00.000Z", last_message_at: "2026-03-10T10:00:00.000Z", run_id: RUN.id, computed_at: RUN.at.toISOString() },
    ]);
    // Globex counted as ours: only Initech is external.
    const ours = await run("email_correspondents", local, 5_000, { internal_domains: "acme.example, globex.example", include_cc: false });
    expect(ours.email_domains!.map((d) => [d.domain, d.messages])).toEqual([["initech.example", 1]]);
    expect(ours.email_pairs!.find((p) => p.from_address === "ann@globex.example")).toMatchObject({ direction: "Internal" });
  });

  it("give the same rows with two rows per scan batch, and from PostgreSQL", async () => {
    for (const id of EMAIL_TEMPLATES) {
      const whole = await run(id, local, 5_000);
      expect(await run(id, local, 2), id).toEqual(whole);
      expect(await run(id, postgres, 2), id).toEqual(whole);
      for (const [suffix, rows] of Object.entries(whole)) expect(rows.length, `${id}.${suffix}`).toBeGreaterThan(0);
    }
  }, 60_000);
});
