import type { ScanColumn } from "../../integrations/destinations/warehouse.js";
import type { Row } from "../../integrations/destinations/writer.js";
import { emailRowOf, orderThread, Side, type EmailRow } from "../analysis/email-addresses.js";
import { Correspondence } from "../analysis/email-network.js";
import { CorrespondentResponses, threadResponse } from "../analysis/email-response.js";
import { EmailSentiment, type SenderFilter } from "../analysis/email-sentiment.js";
import { list, type ProgramContext, type TemplateProgram } from "./types.js";

/**
 * The e-mail templates' programs: one pass over the source's `email_messages`, scanned by thread, then time sent, then
 * id, so that one thread at a time is held. Rows computed per thread are written as they come; rows over all threads
 * (correspondents, periods, pairs, domains) from a few numbers kept per key, at the end.
 */

const HEADER_COLUMNS: ScanColumn[] = [
  { name: "message_id", type: "string" },
  { name: "thread_id", type: "string" },
  { name: "mailbox", type: "string" },
  { name: "from_address", type: "string" },
  { name: "to_addresses", type: "json" },
  { name: "cc_addresses", type: "json" },
  { name: "subject", type: "string" },
  { name: "sent_at", type: "timestamp" },
];
const TEXT_COLUMNS: ScanColumn[] = [...HEADER_COLUMNS, { name: "snippet", type: "string" }, { name: "body_text", type: "string" }];
const THREAD_ORDER = ["thread_id", "sent_at", "message_id"] as const;

/**
 * The source's threads, one at a time, each in its order. A message without a thread is a thread of its own; a row a
 * warehouse holds twice (next to each other in this order) counts once. The log gets the counts (readDone).
 */
async function* eachThread(context: ProgramContext, columns: readonly ScanColumn[]): AsyncGenerator<EmailRow[]> {
  let messages = 0;
  let threads = 0;
  let current: EmailRow[] = [];
  const flush = function* (): Generator<EmailRow[]> {
    if (current.length === 0) return;
    const thread = orderThread(current);
    current = [];
    threads += 1;
    yield thread;
  };
  for await (const batch of context.scan("email_messages", columns, THREAD_ORDER)) {
    for (const row of batch) {
      const message = emailRowOf(row);
      const previous = current[current.length - 1];
      if (previous && previous.message_id === message.message_id) {
        current[current.length - 1] = message;
        continue;
      }
      if (previous && (message.thread_id === null || message.thread_id !== previous.thread_id)) {
        context.checkpoint();
        yield* flush();
      }
      messages += 1;
      current.push(message);
    }
  }
  context.checkpoint();
  yield* flush();
  context.readDone(messages);
  context.note(`Grouped into ${threads.toLocaleString("en-US")} threads.`);
}

/** Rows of one output, written in batches as they come. */
function rowWriter(context: ProgramContext, suffix: string) {
  let rows: Row[] = [];
  return {
    async add(row: Record<string, unknown>) {
      rows.push({ ...(row as Row), ...context.stamp });
      if (rows.length >= 1_000) await this.flush();
    },
    async flush() {
      const out = rows;
      rows = [];
      await context.write(suffix, out);
    },
  };
}

const sideOf = (values: Record<string, unknown>) => new Side(list(values.internal_domains));

const responseTime: TemplateProgram = {
  stream: "email_messages",
  async run(context) {
    const side = sideOf(context.values);
    const options = { maxMinutes: Number(context.values.max_reply_hours ?? 720) * 60 };
    const correspondents = new CorrespondentResponses(side, options);
    const threads = rowWriter(context, "thread_response_times");
    context.step("threads", "sides", "replies", "per_thread", "per_correspondent");
    for await (const thread of eachThread(context, HEADER_COLUMNS)) {
      const row = threadResponse(thread, side, options);
      if (row) await threads.add({ ...row });
      correspondents.add(thread);
    }
    await threads.flush();
    context.step("response_tables");
    await context.write("correspondent_response_times", correspondents.result().map((r) => ({ ...r, ...context.stamp })));
  },
};

const sentiment: TemplateProgram = {
  stream: "email_messages",
  async run(context) {
    const granularity = context.values.granularity === "day" ? "day" : "week";
    const senders = (["all", "internal", "external"].includes(String(context.values.senders)) ? context.values.senders : "all") as SenderFilter;
    const periods = new EmailSentiment({ granularity, senders, side: sideOf(context.values) });
    const threads = rowWriter(context, "thread_sentiment");
    context.step("own_words", "score", "by_period", "by_thread");
    for await (const thread of eachThread(context, TEXT_COLUMNS)) {
      const row = periods.add(thread);
      if (row) await threads.add({ ...row });
    }
    await threads.flush();
    context.step("sentiment_tables");
    await context.write("email_sentiment", periods.result().map((p) => ({ ...p, granularity, ...context.stamp })));
  },
};

const correspondents: TemplateProgram = {
  stream: "email_messages",
  async run(context) {
    const network = new Correspondence({ side: sideOf(context.values), includeCc: context.values.include_cc !== false });
    context.step("addresses", "sides", "pairs", "domains");
    for await (const thread of eachThread(context, HEADER_COLUMNS)) network.add(thread);
    const top = Number(context.values.top_n ?? 50);
    context.checkpoint();
    context.step("network_tables");
    await context.write("email_pairs", network.pairs(top).map((p) => ({ ...p, ...context.stamp })));
    await context.write("email_domains", network.domains(top).map((d) => ({ ...d, ...context.stamp })));
  },
};

export const EMAIL_PROGRAMS: Record<string, TemplateProgram> = {
  email_response_time: responseTime,
  email_sentiment: sentiment,
  email_correspondents: correspondents,
};
