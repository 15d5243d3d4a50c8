import net from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, createUserSession, startTestBackend, type TestBackend } from "../support/backend.js";
import { createLogger } from "../../backend/lib/log.js";

/**
 * The backend's HTTP edge (issue #24): bodies are capped before they are read, writes take exactly JSON and never
 * come cross-site, text Postgres cannot store is a 400, and a database error's parameters never reach the log.
 */
let t: TestBackend;
let alice: { userId: string; cookie: string };
const logLines: string[] = [];

function send(method: string, path: string, options: { cookie?: string; headers?: Record<string, string>; body?: string } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  return fetch(`${t.url}${path}`, { method, headers, body: options.body });
}
const json = (method: string, path: string, body: unknown, cookie = alice.cookie) =>
  send(method, path, { cookie, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function answer(response: Response) {
  const text = await response.text();
  let message: unknown;
  try {
    message = (JSON.parse(text) as { message?: unknown }).message;
  } catch {
    message = text;
  }
  return { status: response.status, message };
}

async function datagenSource(name = "Demo data") {
  const credential = (await (await json("POST", "/externalauth/datagen/callback", {})).json()) as { credential_id: string };
  const response = await json("POST", "/sources/create", { name, credentialId: credential.credential_id, integration_name: "datagen", source_metadata: { company: "Acme", format: "zoom" } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}
async function localDestination(name = "Disk") {
  const response = await json("POST", "/destinations/create", { name, integration_name: "local" });
  expect(response.status).toBe(201);
  return ((await response.json()) as { destination: { id: string } }).destination.id;
}
async function connector(sourceId: string, destinationId: string, name = "Nightly") {
  const response = await json("POST", "/connectors/create", { name, description: "all", source_id: sourceId, destination_ids: [destinationId], frequency: "daily", lookback_days: 7 });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}
const count = async (table: string) => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

/**
 * Sends a request head that declares (or streams, chunked) `size` bytes and keeps writing until the server answers:
 * the status line of the answer, and how many bytes were written by then.
 */
function uploadUntilAnswered(path: string, size: number, headers: Record<string, string>, chunked = false): Promise<{ status: number; written: number }> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    let written = 0;
    let received = "";
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (match) resolve({ status: Number(match[1]), written });
      else reject(error ?? new Error(`no answer after ${written} bytes: ${received.slice(0, 200)}`));
    };
    socket.on("data", (data) => {
      received += data.toString("latin1");
      if (received.includes("\r\n\r\n")) finish();
    });
    socket.on("error", finish);
    socket.on("close", () => finish());
    socket.on("connect", () => {
      const lines = [`POST ${path} HTTP/1.1`, "Host: 127.0.0.1", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      lines.push(chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${size}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
      const pump = () => {
        while (!done && written < size) {
          const piece = chunk.subarray(0, Math.min(chunk.length, size - written));
          written += piece.length;
          const data = chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece;
          if (!socket.write(data)) return void socket.once("drain", pump);
        }
        if (!done && chunked) socket.write("0\r\n\r\n");
      };
      pump();
    });
  });
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      callback();
    },
  });
  t = await startTestBackend({ log: createLogger("info", "backend", sink) });
  alice = await createUserSession(t, "alice@example.com", "Alice Example");
});
afterAll(async () => {
  await t?.stop();
});

describe("body limits", () => {
  it("refuses a signed-in user's 200 MB JSON body with 413 before reading it, and the process stays small", async () => {
    const before = process.memoryUsage().rss;
    const result = await uploadUntilAnswered("/sources/create", 200 * 1024 * 1024, { cookie: alice.cookie, "Content-Type": "application/json" });
    expect(result.status).toBe(413);
    // Answered on the declared length: far less than the body was sent.
    expect(result.written).toBeLessThan(100 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    expect(process.memoryUsage().rss).toBeLessThan(600 * 1024 * 1024);
  });

  it("refuses a streamed (chunked) body once it passes the limit, unauthenticated too", async () => {
    const before = process.memoryUsage().rss;
    const signedIn = await uploadUntilAnswered("/connectors/create", 150 * 1024 * 1024, { cookie: alice.cookie, "Content-Type": "application/json" }, true);
    expect(signedIn.status).toBe(413);
    expect(signedIn.written).toBeLessThan(100 * 1024 * 1024);
    const anonymous = await uploadUntilAnswered("/auth/google/callback", 150 * 1024 * 1024, { "Content-Type": "application/json" }, true);
    expect(anonymous.status).toBe(413);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it("answers 413 with a plain sentence, and takes a body under the limit", async () => {
    const big = JSON.stringify({ name: "x".repeat(70 * 1024) });
    expect(await answer(await json("POST", "/sources/create", JSON.parse(big)))).toEqual({ status: 413, message: "The request body is too large: at most 64 KB is accepted here." });
    const fits = await json("POST", "/sources/create", { name: "x".repeat(60 * 1024) });
    expect(await answer(fits)).toEqual({ status: 400, message: "Source name must be 200 characters or fewer" });
    // A transform's inputs may be larger than a form: its routes take more.
    const draft = await json("POST", "/transforms/validate-draft", { name: "x", description: "y".repeat(100 * 1024) });
    expect(draft.status).toBe(400);
  });
});

describe("writes take exactly JSON", () => {
  it.each([
    ["text/plain; charset=application/json"],
    ["application/jsonx"],
    ["application/json-patch+json"],
    ["application/x-www-form-urlencoded"],
    ["multipart/form-data; boundary=x"],
    ["text/plain"],
    ["application/json;;;"],
  ])("refuses Content-Type %s with 415", async (type) => {
    const before = await count("sources");
    const response = await send("POST", "/sources/create", { cookie: alice.cookie, headers: { "content-type": type }, body: '{"name":"x"}' });
    expect(await answer(response)).toEqual({ status: 415, message: "Send the body as JSON (Content-Type: application/json)." });
    expect(await count("sources")).toBe(before);
  });

  it("takes application/json with a charset", async () => {
    const credential = (await (await json("POST", "/externalauth/datagen/callback", {})).json()) as { credential_id: string };
    const response = await send("POST", "/sources/create", {
      cookie: alice.cookie,
      headers: { "content-type": "Application/JSON; charset=utf-8" },
      body: JSON.stringify({ name: "Typed", credentialId: credential.credential_id, integration_name: "datagen", source_metadata: { format: "zoom" } }),
    });
    expect(response.status).toBe(201);
  });

  it("refuses a body without a Content-Type, and takes a body-less POST as the web server sends it", async () => {
    const id = await connector(await datagenSource("For pause"), await localDestination("For pause"), "Pause me");
    expect((await answer(await send("POST", `/connectors/${id}/pause`, { cookie: alice.cookie, body: "x" }))).status).toBe(415);
    // fetch sends no Content-Type for a body-less POST, as the web server's client does.
    expect((await send("POST", `/connectors/${id}/pause`, { cookie: alice.cookie })).status).toBe(200);
    expect((await send("POST", `/connectors/${id}/resume`, { cookie: alice.cookie, headers: { "content-type": "application/json" } })).status).toBe(200);
  });
});

describe("no cross-site writes", () => {
  // Exactly what a page on another port of this host can send with fetch(url, { mode: "no-cors", credentials: "include" }).
  const noCors = (site: string) => ({ origin: "http://localhost:9999", "sec-fetch-site": site, "sec-fetch-mode": "no-cors", "content-type": "text/plain;charset=UTF-8" });

  it.each(["same-site", "cross-site"])("refuses a no-cors %s fetch creating a connector or a source, or starting a sync", async (site) => {
    const sourceId = await datagenSource(`Target ${site}`);
    const destinationId = await localDestination(`Target ${site}`);
    const connectorId = await connector(sourceId, destinationId, `Target ${site}`);
    const credential = (await (await json("POST", "/externalauth/datagen/callback", {})).json()) as { credential_id: string };
    const [connectors, sources, runs, credentials] = [await count("connectors"), await count("sources"), await count("sync_runs"), await count("credentials")];

    const attempts = [
      ["/connectors/create", JSON.stringify({ name: "Evil", description: "x", source_id: sourceId, destination_ids: [destinationId], frequency: "daily", lookback_days: 7 })],
      ["/sources/create", JSON.stringify({ name: "Evil", credentialId: credential.credential_id, integration_name: "datagen", source_metadata: { format: "zoom" } })],
      [`/connectors/${connectorId}/sync`, undefined],
      ["/externalauth/datagen/callback", undefined],
    ] as const;
    for (const [path, body] of attempts) {
      const response = await send("POST", path, { cookie: alice.cookie, headers: noCors(site), body });
      expect({ path, ...(await answer(response)) }).toEqual({ path, status: 403, message: "Cross-site requests are not accepted. Use Tributary's own pages." });
    }
    // With JSON (which a cross-site page cannot send without a preflight the backend never grants), still refused.
    const asJson = await send("POST", "/connectors/create", { cookie: alice.cookie, headers: { ...noCors(site), "content-type": "application/json" }, body: attempts[0][1] });
    expect(asJson.status).toBe(403);
    expect((await send("DELETE", `/connectors/delete/${connectorId}`, { cookie: alice.cookie, headers: noCors(site) })).status).toBe(403);

    expect([await count("connectors"), await count("sources"), await count("sync_runs"), await count("credentials")]).toEqual([connectors, sources, runs, credentials]);
  });

  it("refuses a foreign Origin without Sec-Fetch-Site (older browsers) and an opaque one; takes the app's own", async () => {
    const id = await connector(await datagenSource("Origins"), await localDestination("Origins"), "Origins");
    for (const origin of ["http://localhost:9999", "null", "http://localhost:3999.evil.example", "https://localhost:3999"]) {
      expect((await send("POST", `/connectors/${id}/pause`, { cookie: alice.cookie, headers: { origin } })).status).toBe(403);
    }
    expect((await send("POST", `/connectors/${id}/pause`, { cookie: alice.cookie, headers: { origin: APP_URL, "sec-fetch-site": "same-origin" } })).status).toBe(200);
    // Reads are not affected.
    expect((await send("GET", `/connectors/list-by-id/${id}`, { cookie: alice.cookie, headers: { origin: "http://localhost:9999", "sec-fetch-site": "cross-site" } })).status).toBe(200);
  });

  it("refuses a plain <form> POST from another site", async () => {
    const before = await count("sources");
    const response = await send("POST", "/sources/create", {
      cookie: alice.cookie,
      headers: { origin: "http://localhost:9999", "sec-fetch-site": "same-site", "sec-fetch-mode": "navigate", "content-type": "application/x-www-form-urlencoded" },
      body: "name=Evil&integration_name=datagen",
    });
    expect(response.status).toBe(403);
    expect(await count("sources")).toBe(before);
  });
});

describe("text Postgres cannot store", () => {
  it("answers 400 with a sentence on every create and edit, and stores nothing", async () => {
    const sourceId = await datagenSource("Clean");
    const destinationId = await localDestination("Clean");
    const connectorId = await connector(sourceId, destinationId, "Clean");
    const credential = (await (await json("POST", "/externalauth/datagen/callback", {})).json()) as { credential_id: string };
    const nul = "bad\u0000name";
    const cases: [string, string, unknown, string][] = [
      ["POST", "/sources/create", { name: nul, credentialId: credential.credential_id, integration_name: "datagen", source_metadata: { format: "zoom" } }, "Name must not contain control characters."],
      ["POST", "/sources/create", { name: "ok", description: "a\u0000", credentialId: credential.credential_id, integration_name: "datagen", source_metadata: { format: "zoom" } }, "Description must not contain control characters."],
      ["POST", "/sources/create", { name: "ok", credentialId: credential.credential_id, integration_name: "datagen", source_metadata: { format: "zoom", company: "A\u0000" } }, "Company name must not contain control characters."],
      ["PUT", `/sources/update/${sourceId}`, { name: nul }, "Name must not contain control characters."],
      ["PUT", `/sources/update/${sourceId}`, { name: "ok", description: "\ud800" }, "Description must not contain control characters."],
      ["POST", "/destinations/create", { name: nul, integration_name: "local" }, "Name must not contain control characters."],
      ["POST", "/destinations/create", { name: "ok", description: "x\u0000", integration_name: "local" }, "Description must not contain control characters."],
      ["PUT", `/destinations/update/${destinationId}`, { name: nul }, "Name must not contain control characters."],
      ["PUT", `/destinations/update/${destinationId}`, { name: "ok", description: "\u0000" }, "Description must not contain control characters."],
      ["POST", "/connectors/create", { name: nul, description: "x", source_id: sourceId, destination_ids: [destinationId], frequency: "daily", lookback_days: 7 }, "Name must not contain control characters."],
      ["PUT", `/connectors/update/${connectorId}`, { name: "ok", description: "x\u0000", source_id: sourceId, destination_id: destinationId, frequency: "daily" }, "Description must not contain control characters."],
      ["POST", "/transforms/validate-draft", { name: nul, connector_id: connectorId, frequency: "daily", file_type: ".vtt", workflow: "template" }, "Name must not contain control characters."],
      ["POST", "/transforms/create", { template_id: "topic_modeling", name: nul, connector_id: connectorId, permissions_setup: true }, "Name must not contain control characters."],
      ["POST", "/transforms/create", { template_id: "topic_modeling", name: "ok", connector_id: connectorId, permissions_setup: true, inputs: { keywords: ["a\u0000"] } }, "inputs must not contain control characters or be nested too deeply."],
      ["POST", "/externalauth/zoom/get-groups", { credential_id: "\u0000" }, "credential_id must not contain control characters."],
    ];
    const before = [await count("sources"), await count("destinations"), await count("connectors"), await count("transforms")];
    for (const [method, path, body, message] of cases) {
      expect({ path, ...(await answer(await json(method, path, body))) }).toEqual({ path, status: 400, message });
    }
    expect([await count("sources"), await count("destinations"), await count("connectors"), await count("transforms")]).toEqual(before);
    const names = await t.db.query<{ name: string }>("SELECT name FROM sources WHERE id = $1", [sourceId]);
    expect(names.rows[0]!.name).toBe("Clean");
  });

  it("answers 400, not 500, when Postgres itself refuses a value", async () => {
    // A trigger that refuses the row exactly as Postgres refuses a NUL byte: the last line of defence, under validation.
    await t.db.query(`CREATE FUNCTION refuse_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.name = 'refused by the database' THEN RAISE EXCEPTION 'invalid byte sequence for encoding "UTF8": 0x00' USING ERRCODE = '22021'; END IF; RETURN NEW; END $$`);
    await t.db.query("CREATE TRIGGER refuse_bytes BEFORE INSERT ON destinations FOR EACH ROW EXECUTE FUNCTION refuse_bytes()");
    try {
      const response = await json("POST", "/destinations/create", { name: "refused by the database", integration_name: "local" });
      expect(await answer(response)).toEqual({
        status: 400,
        message: "The request contains text that cannot be stored (control characters or broken Unicode). Please remove them and try again.",
      });
    } finally {
      await t.db.query("DROP TRIGGER refuse_bytes ON destinations; DROP FUNCTION refuse_bytes()");
    }
  });
});

describe("logs", () => {
  it("log a failed query's text, never its parameters nor the row it quotes", async () => {
    const secretName = "Quarterly board sync 7f3a9c";
    const secretDescription = "private notes 51d2e8";
    await t.db.query("ALTER TABLE sources ADD CONSTRAINT edge_test_refuse CHECK (name <> 'Quarterly board sync 7f3a9c')");
    try {
      const credential = (await (await json("POST", "/externalauth/datagen/callback", {})).json()) as { credential_id: string };
      logLines.length = 0;
      const response = await json("POST", "/sources/create", {
        name: secretName,
        description: secretDescription,
        credentialId: credential.credential_id,
        integration_name: "datagen",
        source_metadata: { format: "zoom" },
      });
      expect(await answer(response)).toEqual({ status: 500, message: "Something went wrong on our side. Please try again." });
    } finally {
      await t.db.query("ALTER TABLE sources DROP CONSTRAINT edge_test_refuse");
    }
    const line = logLines.find((l) => l.includes("unhandled error"));
    expect(line, logLines.join("\n")).toBeDefined();
    const entry = JSON.parse(line!) as { err: { query?: string; cause?: { code?: string; constraint?: string } } };
    expect(entry.err.query).toMatch(/insert into "sources"/i);
    expect(entry.err.cause).toMatchObject({ code: "23514", constraint: "edge_test_refuse" });
    const all = logLines.join("\n");
    expect(all).not.toContain(secretName);
    expect(all).not.toContain(secretDescription);
    // The owner's id is one of the insert's parameters too.
    expect(all).not.toContain(alice.userId);
    expect(all).not.toMatch(/params/i);
  });
});
