import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parse as parseCsv } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultTableName } from "../../backend/transforms/runner.js";
import { enqueueDueTransformRuns, recoverLostTransformRuns, TRANSFORM_QUEUE } from "../../backend/transforms/runs.js";
import { HOSTED_UNAVAILABLE } from "../../backend/transforms/provider.js";
import { TRANSFORM_MESSAGES as M, transformSchema, type TransformRun } from "../../contract/transforms.js";
import type { SyncRun } from "../../contract/connectors.js";
import { api, createUserSession, startTestBackend, waitForRun, type TestBackend } from "../support/backend.js";
import { readWarehouse, seedDatagenConnector } from "../support/seed.js";
import { startTestQueue } from "../support/queue.js";

/** Transforms over real HTTP with a real worker (role all): the §7 calls, the runner, and result tables in the local warehouse. */
let t: TestBackend;
let cookie: string;
let otherCookie: string;

beforeAll(async () => {
  t = await startTestBackend({ role: "all" });
  cookie = (await createUserSession(t, "transforms@example.com", "T")).cookie;
  otherCookie = (await createUserSession(t, "other@example.com", "T")).cookie;
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const call = (method: string, route: string, body?: unknown, as = cookie) => api(t, as, method, route, body);

async function localConnector(as = cookie, sync = true) {
  const { connectorId, folder } = await seedDatagenConnector(t, as, { name: `Sync ${randomBytes(3).toString("hex")}` });
  if (sync) {
    const queued = await call("POST", `/connectors/${connectorId}/sync`, undefined, as);
    const run = await waitForRun<SyncRun>(t, as, `/connectors/${connectorId}`, queued.body.run.id, { timeoutMs: 60_000 });
    if (run.status !== "succeeded") throw new Error(`sync ${run.status}: ${run.error}`);
  }
  return { connectorId, folder };
}

const warehouse = (folder: string, query: string) => readWarehouse(t, folder, query);

const waitForTransformRun = (transformId: string, runId?: string) => waitForRun<TransformRun>(t, cookie, `/transforms/${transformId}`, runId, { until: (r) => r.status === "succeeded" || r.status === "failed", timeoutMs: 80_000 });

const createBody = (connectorId: string, extra: Record<string, unknown> = {}) => ({
  template_id: "topic_modeling",
  name: `Topics ${randomBytes(3).toString("hex")}`,
  description: "What the calls are about",
  connector_id: connectorId,
  permissions_setup: true,
  frequency: "daily",
  file_types: [".vtt"],
  status: "PENDING",
  ...extra,
});

describe("transforms: config, first-screen check and create validation", () => {
  it("GET /transforms/config answers the catalogue's types, the caller's connectors only, and the file types", async () => {
    const mine = await localConnector(cookie, false);
    await localConnector(otherCookie, false);
    const { status, body } = await call("GET", "/transforms/config");
    expect(status).toBe(200);
    expect(body.transform_types).toContainEqual({ value: "topic_modeling", label: "Topic Modeling" });
    // Six transcript templates and three e-mail ones.
    expect(body.transform_types).toHaveLength(9);
    expect(body.transform_types).toContainEqual({ value: "email_response_time", label: "E-mail Response Time" });
    // Each connector with the file types its data comes as (a zoom-style generator: .vtt and .txt) and whether it synced.
    expect(body.connectors).toEqual([{ id: mine.connectorId, name: expect.any(String), file_types: [".vtt", ".txt"], synced: false }]);
    expect(body.file_types).toEqual([".vtt", ".txt", ".json"]);
    expect((await fetch(`${t.url}/transforms/config`)).status).toBe(401);
  });

  it("POST /transforms/validate-draft checks every §5 rule, the connector's owner, and the name case-insensitively", async () => {
    const { connectorId } = await localConnector(cookie, false);
    const draft = { name: "Weekly Topics", description: "", connector_id: connectorId, frequency: "daily", file_type: ".vtt", workflow: "template" };
    expect(await call("POST", "/transforms/validate-draft", draft)).toEqual({ status: 200, body: { status: "success", message: "The transform can be configured." } });
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ ...draft, name: "   " }, 400, M.nameRequired, "name"],
      [{ ...draft, connector_id: "" }, 400, M.connectorRequired, "connector_id"],
      [{ ...draft, frequency: "weekly" }, 400, M.frequencyRequired, "frequency"],
      [{ ...draft, file_type: undefined }, 400, M.fileTypeRequired, "file_type"],
      [{ ...draft, workflow: undefined }, 400, M.workflowRequired, "workflow"],
      [{ ...draft, workflow: "custom" }, 400, M.customUnavailable, "workflow"],
    ];
    for (const [body, status, message, field] of cases) expect(await call("POST", "/transforms/validate-draft", body)).toEqual({ status, body: { message, field } });
    const foreign = await localConnector(otherCookie, false);
    expect(await call("POST", "/transforms/validate-draft", { ...draft, connector_id: foreign.connectorId })).toEqual({ status: 400, body: { message: M.connectorNotFound, field: "connector_id" } });
    expect((await call("POST", "/transforms/create", createBody(connectorId, { name: "Weekly Topics" }))).status).toBe(201);
    expect(await call("POST", "/transforms/validate-draft", { ...draft, name: "  weekly TOPICS " })).toEqual({ status: 409, body: { message: M.nameTaken, field: "name" } });
    // Another user's names do not count.
    const theirs = await localConnector(otherCookie, false);
    expect((await call("POST", "/transforms/validate-draft", { ...draft, connector_id: theirs.connectorId }, otherCookie)).status).toBe(200);
    expect((await call("POST", "/transforms/validate-draft", "nope")).status).toBe(400);
  });

  it("POST /transforms/create refuses bad bodies and bad inputs with the spec's messages", async () => {
    const { connectorId } = await localConnector(cookie, false);
    const base = createBody(connectorId, { name: "Validated" });
    const cases: [unknown, number, string][] = [
      [{ ...base, template_id: undefined }, 400, M.templateIdMissing],
      [{ ...base, name: "" }, 400, M.nameRequired],
      [{ ...base, connector_id: undefined }, 400, M.templateCreateIncomplete],
      [{ ...base, permissions_setup: false }, 400, M.templateCreateIncomplete],
      [{ ...base, frequency: "monthly" }, 400, M.frequencyRequired],
      [{ ...base, file_types: [] }, 400, M.fileTypeRequired],
      [{ ...base, status: "RUNNING" }, 400, "Invalid literal value, expected \"PENDING\""],
      [{ ...base, template_id: "nope" }, 400, M.templateNotFound],
      [{ ...base, connector_id: "00000000-0000-4000-8000-000000000000" }, 400, M.connectorNotFound],
      [{ ...base, inputs: { num_topics: 1 } }, 400, '"Number of topics" must be between 2 and 20.'],
      [{ ...base, inputs: { top_words: 3.5 } }, 400, '"Words per topic" must be a whole number.'],
      [{ ...base, inputs: { speakers: "everyone" } }, 400, '"Speakers" must be one of: all, internal, external.'],
      [{ ...base, inputs: { provider: "hosted_llm" } }, 400, HOSTED_UNAVAILABLE],
      [{ ...base, inputs: { unknown_key: 1 } }, 400, 'Unknown input "unknown_key" for the template Topic modeling.'],
      [{ ...base, template_id: "keyword_tracker", inputs: { case_sensitive: "maybe" } }, 400, '"Case-sensitive" must be true or false.'],
      [{ ...base, template_id: "keyword_tracker", inputs: { keywords: " , ," } }, 400, '"Keywords" needs at least one item.'],
      [{ ...base, requirement_inputs: { results_prefix: "  " } }, 400, 'Please fill in "Result table prefix".'],
      [{ ...base, requirement_inputs: { results_dataset: "x" } }, 400, 'Unknown requirement input "results_dataset".'],
      [[], 400, "The request body must be a JSON object."],
      ["{", 400, "The request body is not valid JSON."],
    ];
    for (const [body, status, message] of cases) {
      const response = await call("POST", "/transforms/create", body);
      expect({ body, status: response.status, message: response.body.message }).toEqual({ body, status, message });
    }
    const plain = await fetch(`${t.url}/transforms/create`, { method: "POST", headers: { cookie, "content-type": "text/plain" }, body: "x" });
    expect(plain.status).toBe(415);
    // Nothing was created by any of them.
    const { rows } = await t.db.query("SELECT count(*)::int AS n FROM transforms WHERE name = 'Validated'");
    expect(rows[0].n).toBe(0);
  });
});

describe("transforms: create, run, results, ownership", () => {
  it("topic_modeling end to end: create queues a first run, which writes topic tables from the synced transcripts; re-runs replace rows", async () => {
    const { connectorId, folder } = await localConnector();
    const [{ meetings }] = (await warehouse(folder, "SELECT count(*)::INT AS meetings FROM meetings")) as { meetings: number }[];
    expect(meetings).toBeGreaterThan(5);
    const created = await call("POST", "/transforms/create", createBody(connectorId, { name: "Call Topics", inputs: { num_topics: "3", extra_stopwords: "acme, rockets" } }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "success", message: "Transform created" });
    const id = created.body.transform_id as string;

    const detail = await call("GET", `/transforms/${id}`);
    expect(transformSchema.parse(detail.body)).toMatchObject({ id, name: "Call Topics", template_id: "topic_modeling", transform_type: "topic_modeling", frequency: "daily", file_types: [".vtt"], connector_id: connectorId });
    expect(detail.body.inputs).toMatchObject({ num_topics: 3, top_words: 8, extra_stopwords: ["acme", "rockets"], provider: "local" });
    expect(detail.body.connector_file_types).toEqual([".vtt", ".txt"]);
    expect(["PENDING", "RUNNING", "SUCCEEDED"]).toContain(detail.body.status);

    const run = await waitForTransformRun(id, created.body.run_id);
    expect(run).toMatchObject({ status: "succeeded", trigger: "create", error: null, records: meetings });
    const topics = resultTableName(id, "topics");
    const assignments = resultTableName(id, "topic_assignments");
    expect(topics).toBe(`tx_${id.replace(/-/g, "").slice(0, 8)}_topics`);
    expect(run.outputs.map((o) => o.table)).toEqual([topics, assignments]);
    const [{ n: topicRows }] = (await warehouse(folder, `SELECT count(*)::INT AS n FROM ${topics}`)) as { n: number }[];
    expect(topicRows).toBe(run.outputs[0]!.rows);
    expect(topicRows).toBeGreaterThanOrEqual(2);
    expect(topicRows).toBeLessThanOrEqual(3);
    const assigned = (await warehouse(folder, `SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d, min(run_id) AS r FROM ${assignments}`)) as { n: number; d: number; r: string }[];
    expect(assigned[0]).toEqual({ n: run.outputs[1]!.rows, d: run.outputs[1]!.rows, r: run.id });
    expect(assigned[0]!.n).toBeGreaterThan(0);

    const after = await call("GET", `/transforms/${id}`);
    expect(after.body.status).toBe("SUCCEEDED");
    expect(after.body.last_run).toMatchObject({ id: run.id, status: "succeeded" });
    const listed = (await call("GET", "/transforms/list")).body as { id: string; status: string }[];
    expect(listed.find((t) => t.id === id)?.status).toBe("SUCCEEDED");

    const results = await call("GET", `/transforms/${id}/results?table=${topics}&limit=2`);
    expect(results.status).toBe(200);
    expect(results.body).toMatchObject({ table: topics, tables: [topics, assignments], total: topicRows });
    expect(results.body.rows).toHaveLength(Math.min(2, topicRows));
    expect(results.body.columns).toEqual(expect.arrayContaining(["topic_id", "label", "top_words", "documents", "run_id", "computed_at"]));
    expect((await call("GET", `/transforms/${id}/results`)).body.table).toBe(topics);
    expect(await call("GET", `/transforms/${id}/results?table=meetings`)).toEqual({ status: 400, body: { message: M.unknownResultTable, field: "table" } });
    expect((await call("GET", `/transforms/${id}/results?limit=0`)).status).toBe(400);
    expect((await call("GET", `/transforms/${id}/results?limit=abc`)).status).toBe(400);

    // Issue 35 (defect 7): every row of a result table as a CSV file, lists as their JSON, never cached.
    const csv = await call("GET", `/transforms/${id}/results/download?table=${topics}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="${topics}.csv"`);
    expect(csv.headers.get("cache-control")).toBe("private, no-store");
    const [header, ...records] = parseCsv(csv.text) as string[][];
    expect(header).toEqual(results.body.columns);
    expect(records).toHaveLength(topicRows);
    const topWords = header!.indexOf("top_words");
    expect(JSON.parse(records[0]![topWords]!)).toEqual(expect.any(Array));
    expect(new Set(records.map((r) => r[header!.indexOf("run_id")]))).toEqual(new Set([run.id]));
    expect(await call("GET", `/transforms/${id}/results/download?table=meetings`)).toEqual({ status: 400, body: { message: M.unknownResultTable, field: "table" } });
    expect(await call("GET", `/transforms/${id}/results/download`)).toMatchObject({ status: 200 });

    // Run now, once: a second call while it is open is refused.
    const again = await call("POST", `/transforms/${id}/run`);
    expect(again.status).toBe(202);
    expect(await call("POST", `/transforms/${id}/run`)).toEqual({ status: 409, body: { message: M.runOpen } });
    const rerun = await waitForTransformRun(id, again.body.run.id);
    expect(rerun).toMatchObject({ status: "succeeded", trigger: "manual" });
    const reassigned = (await warehouse(folder, `SELECT count(*)::INT AS n, count(DISTINCT meeting_id)::INT AS d, min(run_id) AS r, max(run_id) AS s FROM ${assignments}`)) as { n: number; d: number; r: string; s: string }[];
    expect(reassigned[0]).toEqual({ n: assigned[0]!.n, d: assigned[0]!.n, r: rerun.id, s: rerun.id });
    const runs = (await call("GET", `/transforms/${id}/runs`)).body.runs as TransformRun[];
    expect(runs.map((r) => r.id)).toEqual([rerun.id, run.id]);

    // The run's page: its attempt, its result tables and its log (as JSON, and as a text file).
    const one = await call("GET", `/transforms/${id}/runs/${run.id}`);
    expect(one.status).toBe(200);
    expect(one.body.run).toMatchObject({ id: run.id, transform_name: "Call Topics", outputs: run.outputs, attempts: [{ attempt: 1, outcome: "succeeded", error: null }] });
    const messages = (one.body.run.log as { message: string }[]).map((l) => l.message);
    expect(messages[0]).toBe("Queued when it was created.");
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^Read ${meetings.toLocaleString("en-US")} transcripts \\([\\d,]+ lines\\); running the Topic modeling pipeline\\.$`)));
    expect(messages).toContain(`Result table ${topics} written: ${topicRows} rows.`);
    expect(messages.at(-1)).toMatch(new RegExp(`^Run succeeded in .*: ${meetings.toLocaleString("en-US")} records\\.$`));
    const text = await fetch(`${t.url}/transforms/${id}/runs/${run.id}/log`, { headers: { cookie } });
    expect(text.headers.get("content-disposition")).toBe(`attachment; filename="tributary-transform-run-${run.id}.log"`);
    expect((await text.text()).split("\n")[0]).toMatch(/^\S+ INFO {2}Queued when it was created\.$/);
  });

  it("runs every other template on synced data and writes rows a reader can check", async () => {
    const { connectorId, folder } = await localConnector();
    const lines = ((await warehouse(folder, "SELECT count(*)::INT AS n FROM transcript_utterances")) as { n: number }[])[0]!.n;
    const templates: [string, Record<string, unknown>][] = [
      ["sentiment_over_time", { granularity: "day" }],
      ["action_items", {}],
      ["speaker_metrics", { monologue_threshold_seconds: 30 }],
      ["keyword_tracker", { keywords: "Fivetran, Airbyte, Stitch, Segment, Hevo, price" }],
      ["deal_risk", { threshold: 50 }],
    ];
    for (const [template, inputs] of templates) {
      const created = await call("POST", "/transforms/create", createBody(connectorId, { template_id: template, name: `Run ${template}`, inputs }));
      expect(created.status).toBe(201);
      const run = await waitForTransformRun(created.body.transform_id, created.body.run_id);
      expect({ template, status: run.status, error: run.error }).toEqual({ template, status: "succeeded", error: null });
      for (const output of run.outputs) {
        const [{ n }] = (await warehouse(folder, `SELECT count(*)::INT AS n FROM ${output.table}`)) as { n: number }[];
        expect(n).toBe(output.rows);
        expect({ template, table: output.table, rows: output.rows > 0 }).toEqual({ template, table: output.table, rows: true });
      }
      const table = run.outputs[0]!.table;
      if (template === "speaker_metrics") {
        const [sum] = (await warehouse(folder, `SELECT sum(utterances)::INT AS lines FROM ${table}`)) as { lines: number }[];
        expect(sum!.lines).toBe(lines);
      }
      if (template === "keyword_tracker") {
        const summary = (await call("GET", `/transforms/${created.body.transform_id}/results?table=${run.outputs[1]!.table}&limit=10`)).body;
        expect(summary.rows.map((r: { keyword: string }) => r.keyword).sort()).toEqual(["Airbyte", "Fivetran", "Hevo", "Segment", "Stitch", "price"]);
        expect(summary.rows.reduce((n: number, r: { mentions: number }) => n + r.mentions, 0)).toBe(run.outputs[0]!.rows);
      }
      if (template === "deal_risk") {
        const risk = (await warehouse(folder, `SELECT account, risk_score, risk_level FROM ${table}`)) as { account: string; risk_score: number; risk_level: string }[];
        for (const r of risk) expect(["low", "medium", "high"]).toContain(r.risk_level);
      }
    }
  });

  it("a run that cannot succeed fails at once with a readable reason, and the transform's status follows it", async () => {
    const { connectorId } = await localConnector(cookie, false);
    const created = await call("POST", "/transforms/create", createBody(connectorId, { name: "Will Fail" }));
    const id = created.body.transform_id as string;
    const first = await waitForTransformRun(id, created.body.run_id);
    // Nothing synced yet: the run succeeds with nothing read.
    expect(first).toMatchObject({ status: "succeeded", records: 0 });
    await t.db.query(`UPDATE transforms SET inputs = inputs || '{"provider": "hosted_llm"}'::jsonb WHERE id = $1`, [id]);
    const queued = await call("POST", `/transforms/${id}/run`);
    const failed = await waitForTransformRun(id, queued.body.run.id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toBe(`The transform's inputs are no longer valid: ${HOSTED_UNAVAILABLE}`);
    expect((await call("GET", `/transforms/${id}`)).body.status).toBe("FAILED");
    // The details page's banner: failing since this run, with its error; its page tells the attempt.
    expect((await call("GET", `/transforms/${id}/runs`)).body.failing).toMatchObject({ failures: 1, first_run_id: failed.id, last_run_id: failed.id, last_error: failed.error });
    const one = (await call("GET", `/transforms/${id}/runs/${failed.id}`)).body.run;
    expect(one.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: "failed", error: failed.error })]);
    expect(one.log.at(-2)).toMatchObject({ level: "error", message: `Attempt 1 failed (retrying cannot help): ${failed.error}` });
  });

  it("with a hosted LLM configured, topic_modeling can have its topics named by it (only top words are sent)", async () => {
    const received: { auth: string | undefined; body: { model: string; messages: { content: string }[] } }[] = [];
    const llm = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk) => (raw += chunk));
      req.on("end", () => {
        const body = JSON.parse(raw);
        received.push({ auth: req.headers.authorization, body });
        const words = String(body.messages[1].content).replace("Top words of the topic: ", "").split(", ");
        res.writeHead(req.url === "/v1/chat/completions" ? 200 : 404, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: ` "About ${words[0]}". ` } }] }));
      });
    });
    await new Promise<void>((resolve) => llm.listen(0, "127.0.0.1", resolve));
    process.env.TRIBUTARY_LLM_URL = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1/`;
    process.env.TRIBUTARY_LLM_API_KEY = "test-key";
    process.env.TRIBUTARY_LLM_MODEL = "tiny-namer";
    try {
      const metadata = await call("GET", "/templates/topic_modeling/metadata");
      expect(metadata.body.inputs.provider.description).toContain("tiny-namer");
      expect(metadata.body.inputs.provider.description).not.toContain("unavailable");
      const { connectorId, folder } = await localConnector();
      const created = await call("POST", "/transforms/create", createBody(connectorId, { name: "Named Topics", inputs: { provider: "hosted_llm", num_topics: 3 } }));
      expect(created.status).toBe(201);
      const run = await waitForTransformRun(created.body.transform_id, created.body.run_id);
      expect(run).toMatchObject({ status: "succeeded", error: null });
      const topics = (await warehouse(folder, `SELECT label, top_words FROM ${run.outputs[0]!.table} ORDER BY topic_id`)) as { label: string; top_words: string }[];
      expect(topics.length).toBe(received.length);
      for (const t of topics) expect(t.label).toBe(`About ${(JSON.parse(t.top_words) as { word: string }[])[0]!.word}`);
      expect(received.every((r) => r.auth === "Bearer test-key" && r.body.model === "tiny-namer")).toBe(true);
      const assigned = (await warehouse(folder, `SELECT DISTINCT topic_label FROM ${run.outputs[1]!.table}`)) as { topic_label: string }[];
      for (const a of assigned) expect(a.topic_label.startsWith("About ")).toBe(true);
    } finally {
      delete process.env.TRIBUTARY_LLM_URL;
      delete process.env.TRIBUTARY_LLM_API_KEY;
      delete process.env.TRIBUTARY_LLM_MODEL;
      await new Promise((resolve) => llm.close(resolve));
    }
  });

  it("another user's transform is a 404 everywhere; delete removes it with its runs", async () => {
    const { connectorId } = await localConnector(cookie, false);
    const created = await call("POST", "/transforms/create", createBody(connectorId, { name: "Private" }));
    const id = created.body.transform_id as string;
    await waitForTransformRun(id, created.body.run_id);
    for (const [method, route] of [["GET", `/transforms/${id}`], ["GET", `/transforms/${id}/runs`], ["GET", `/transforms/${id}/results`], ["GET", `/transforms/${id}/results/download`], ["POST", `/transforms/${id}/run`], ["DELETE", `/transforms/delete/${id}`]] as const) {
      expect(await call(method, route, undefined, otherCookie)).toEqual({ status: 404, body: { message: M.notFound } });
    }
    const runId = created.body.run_id as string;
    expect((await call("GET", `/transforms/${id}/runs/${runId}`)).status).toBe(200);
    for (const route of [`/transforms/${id}/runs/${runId}`, `/transforms/${id}/runs/${runId}/log`]) {
      expect(await call("GET", route, undefined, otherCookie)).toEqual({ status: 404, body: { message: M.notFound } });
    }
    // Another transform's run is not this one's.
    const { connectorId: another } = await localConnector(cookie, false);
    const second = await call("POST", "/transforms/create", createBody(another, { name: "Private two" }));
    await waitForTransformRun(second.body.transform_id, second.body.run_id);
    expect(await call("GET", `/transforms/${second.body.transform_id}/runs/${runId}`)).toEqual({ status: 404, body: { message: "Run not found" } });
    expect(((await call("GET", "/transforms/list", undefined, otherCookie)).body as { id: string }[]).some((t) => t.id === id)).toBe(false);
    expect(await call("GET", "/transforms/not-a-uuid")).toEqual({ status: 404, body: { message: M.notFound } });
    expect(await call("DELETE", `/transforms/delete/${id}`)).toEqual({ status: 200, body: { message: "Transform deleted" } });
    expect((await call("GET", `/transforms/${id}`)).status).toBe(404);
    const { rows } = await t.db.query("SELECT count(*)::int AS n FROM transform_runs WHERE transform_id = $1", [id]);
    expect(rows[0].n).toBe(0);
  });

  it("the scheduler queues a run per transform whose daily or hourly slot has come, once", async () => {
    const { connectorId } = await localConnector(cookie, false);
    const created = await call("POST", "/transforms/create", createBody(connectorId, { name: "Scheduled", frequency: "hourly" }));
    const id = created.body.transform_id as string;
    await waitForTransformRun(id, created.body.run_id);
    const { boss, queue } = await startTestQueue(t.databaseUrl);
    try {
      const later = new Date(Date.now() + 2 * 3_600_000);
      expect(await enqueueDueTransformRuns(t.handle.db, queue, later)).toBeGreaterThanOrEqual(1);
      const { rows } = await t.db.query("SELECT count(*)::int AS n FROM transform_runs WHERE transform_id = $1 AND trigger = 'schedule'", [id]);
      expect(rows[0].n).toBe(1);
      await waitForTransformRun(id);
      // As if that pass ran at `later`: the run of this slot exists, so the next pass at the same moment skips it.
      await t.db.query("UPDATE transform_runs SET created_at = $2 WHERE transform_id = $1 AND trigger = 'schedule'", [id, later]);
      await enqueueDueTransformRuns(t.handle.db, queue, later);
      const again = await t.db.query("SELECT count(*)::int AS n FROM transform_runs WHERE transform_id = $1 AND trigger = 'schedule'", [id]);
      expect(again.rows[0].n).toBe(1);
    } finally {
      await boss.stop({ graceful: false });
    }
  });

  it("a run whose job ended without it (its worker lost) is queued again, or fails once no attempt is left", async () => {
    const { connectorId } = await localConnector(cookie, false);
    const created = await call("POST", "/transforms/create", createBody(connectorId, { name: "Lost Worker" }));
    const id = created.body.transform_id as string;
    await waitForTransformRun(id, created.body.run_id);
    const { boss, queue } = await startTestQueue(t.databaseUrl);
    // A run a worker was running when it died, whose job will not run again (here: cancelled before anyone took it).
    const lost = async (attempts: number) => {
      const { rows } = await t.db.query<{ id: string; owner_id: string }>(
        "INSERT INTO transform_runs (transform_id, owner_id, trigger, status, attempts, started_at) SELECT id, owner_id, 'manual', 'running', $2, now() FROM transforms WHERE id = $1 RETURNING id",
        [id, attempts],
      );
      const jobId = await boss.send(TRANSFORM_QUEUE, { runId: rows[0]!.id }, { singletonKey: id, startAfter: 3600 });
      await boss.cancel(TRANSFORM_QUEUE, jobId!);
      await t.db.query("UPDATE transform_runs SET job_id = $2 WHERE id = $1", [rows[0]!.id, jobId]);
      await t.db.query("UPDATE transforms SET status = 'RUNNING' WHERE id = $1", [id]);
      return { runId: rows[0]!.id, jobId: jobId! };
    };
    try {
      const retried = await lost(1);
      expect((await call("POST", `/transforms/${id}/run`)).status).toBe(409);
      expect(await recoverLostTransformRuns(t.handle.db, queue)).toBe(1);
      const again = await waitForTransformRun(id, retried.runId);
      expect(again.status).toBe("succeeded");
      const { rows } = await t.db.query<{ job_id: string; attempts: number }>("SELECT job_id, attempts FROM transform_runs WHERE id = $1", [retried.runId]);
      expect(rows[0]!.job_id).not.toBe(retried.jobId);
      expect(rows[0]!.attempts).toBe(2);
      expect((await call("GET", `/transforms/${id}`)).body.status).toBe("SUCCEEDED");

      const spent = await lost(4);
      expect(await recoverLostTransformRuns(t.handle.db, queue)).toBe(1);
      expect(await recoverLostTransformRuns(t.handle.db, queue)).toBe(0);
      const failed = (await call("GET", `/transforms/${id}/runs`)).body.runs.find((r: TransformRun) => r.id === spent.runId) as TransformRun;
      expect(failed).toMatchObject({ status: "failed", error: "Attempt 4 was interrupted (its worker stopped), and no retry is left." });
      expect(failed.finished_at).not.toBeNull();
      expect((await call("GET", `/transforms/${id}`)).body.status).toBe("FAILED");
      expect((await call("POST", `/transforms/${id}/run`)).status).toBe(202);
    } finally {
      await boss.stop({ graceful: false });
    }
  });
});
