import { seedRecords, userIdByEmail, withDb } from "../e2e/db";
import { APP_URL } from "../e2e/env";
import { uniqueEmail } from "../e2e/fixtures";
import { loginCookieHeader } from "../e2e/login";
import { expect, test } from "./fixtures";

/**
 * Issue 24 finding 6: every Remix action answers a 4xx with a plain sentence, never a 5xx, to a body that is not a
 * web form (JSON, plain text, XML, none), a broken multipart body, a NUL character, a file, duplicated or missing
 * fields; the page a browser shows for such a post is the app's error page. Raw HTTP (a browser never sends these),
 * with a signed-in user's cookies: no browser half (moved whole from tests/e2e/, where it ran in js-on only).
 */

const UNSUPPORTED = "Send this form as a web form (application/x-www-form-urlencoded or multipart/form-data), as the page itself does.";
const UNREADABLE = /This form could not be read/;
const NUL = /NUL character/;

/** A fresh signed-in user's Cookie header (the login fixture's cookies) and e-mail. */
async function bodyTester(): Promise<{ cookie: string; email: string }> {
  const email = uniqueEmail("bodies");
  return { cookie: await loginCookieHeader({ name: "Body Tester", email }), email };
}

interface Sent {
  status: number;
  text: string;
}

/** One POST as a careless client sends it: exactly these headers and bytes, redirects not followed. */
async function post(path: string, cookie: string, body: string | Uint8Array | null, contentType?: string): Promise<Sent> {
  const headers: Record<string, string> = { cookie };
  if (contentType !== undefined) headers["content-type"] = contentType;
  const response = await fetch(`${APP_URL}${path}`, {
    method: "POST",
    headers,
    body: body === null ? null : new Uint8Array(typeof body === "string" ? new TextEncoder().encode(body) : body),
    redirect: "manual",
  });
  // The answer is the app's error page (HTML): its text as a reader sees it.
  const text = (await response.text()).replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
  return { status: response.status, text };
}

/** Every route with an action, with records of the signed-in user where the route needs one. */
function actionPaths(ids: { source: string; destination: string; connector: string; transform: string }): string[] {
  return [
    "/connectors/add",
    `/connectors/details/${ids.connector}`,
    `/connectors/edit/${ids.connector}`,
    `/connectors/details/${ids.connector}/schedule`,
    `/transforms/details/${ids.transform}/schedule`,
    "/destinations/add",
    `/destinations/details/${ids.destination}`,
    `/destinations/edit/${ids.destination}`,
    "/sources/add?index",
    "/sources/add/datagen",
    `/sources/details/${ids.source}`,
    `/sources/edit/${ids.source}`,
    "/transforms?index",
    "/transforms/add",
    `/transforms/details/${ids.transform}`,
    "/transforms/templates/select",
    "/transforms/templates/permissions",
    "/transforms/templates/config/topic_modeling",
    "/settings/alerts",
    "/auth/google",
    "/logout",
  ];
}

/** The user's records, one of each kind ("Bodies source", …). */
async function seed(email: string) {
  return seedRecords(await withDb((db) => userIdByEmail(db, email)), "Bodies");
}

const BROKEN_MULTIPART: [string, string, string][] = [
  ["no boundary", "multipart/form-data", '--x\r\ncontent-disposition: form-data; name="name"\r\n\r\nA\r\n--x--\r\n'],
  ["wrong boundary", "multipart/form-data; boundary=abc", '--x\r\ncontent-disposition: form-data; name="name"\r\n\r\nA\r\n--x--\r\n'],
  ["truncated", "multipart/form-data; boundary=x", '--x\r\ncontent-disposition: form-data; name="name"\r\n\r\nA'],
  ["no part headers", "multipart/form-data; boundary=x", "--x\r\n\r\n--x--\r\n"],
];

const PLACEHOLDERS = { source: ":source", destination: ":destination", connector: ":connector", transform: ":transform" };
for (const [index, shown] of actionPaths(PLACEHOLDERS).entries()) {
  test(`bodies that are not a web form answer 415 or 400 with a sentence, never 5xx: POST ${shown}`, async () => {
    const { cookie, email } = await bodyTester();
    const path = actionPaths(await seed(email))[index]!;
    const problems: string[] = [];
    const expectAnswer = (path: string, what: string, sent: Sent, status: number, message: string | RegExp) => {
      const ok = sent.status === status && (typeof message === "string" ? sent.text.includes(message) : message.test(sent.text));
      if (!ok) problems.push(`${path} ${what}: ${sent.status} ${sent.text.slice(0, 160)}`);
    };
    expectAnswer(path, "JSON", await post(path, cookie, '{"name":"x","intent":"create"}', "application/json"), 415, UNSUPPORTED);
    expectAnswer(path, "text/plain", await post(path, cookie, "name=x&intent=create", "text/plain"), 415, UNSUPPORTED);
    expectAnswer(path, "text/plain; charset=application/json", await post(path, cookie, '{"name":"x"}', "text/plain; charset=application/json"), 415, UNSUPPORTED);
    expectAnswer(path, "XML", await post(path, cookie, "<name>x</name>", "application/xml"), 415, UNSUPPORTED);
    expectAnswer(path, "a malformed content type", await post(path, cookie, "name=x", "application/x-www-form-urlencoded; ;;=="), 415, UNSUPPORTED);
    expectAnswer(path, "no content type, empty body", await post(path, cookie, null), 415, UNSUPPORTED);
    expectAnswer(path, "no content type, a form's bytes", await post(path, cookie, "name=x"), 415, UNSUPPORTED);
    for (const [what, type, body] of BROKEN_MULTIPART) expectAnswer(path, `multipart, ${what}`, await post(path, cookie, body, type), 400, UNREADABLE);
    expectAnswer(path, "NUL (url-encoded)", await post(path, cookie, "name=a%00b&description=x", "application/x-www-form-urlencoded"), 400, NUL);
    expectAnswer(path, "NUL in a field name", await post(path, cookie, "na%00me=a", "application/x-www-form-urlencoded"), 400, NUL);
    const nulMultipart = '--x\r\ncontent-disposition: form-data; name="description"\r\n\r\nbad\u0000byte\r\n--x--\r\n';
    expectAnswer(path, "NUL (multipart)", await post(path, cookie, nulMultipart, "multipart/form-data; boundary=x"), 400, NUL);
    const file = '--x\r\ncontent-disposition: form-data; name="name"; filename="a.txt"\r\ncontent-type: text/plain\r\n\r\nhello\r\n--x--\r\n';
    expectAnswer(path, "a file", await post(path, cookie, file, "multipart/form-data; boundary=x"), 400, /does not take files/);
    expect(problems, "answers that were not the expected 4xx with its sentence").toEqual([]);
  });
}

test("well-formed but wrong forms (empty, duplicated, missing or huge fields) never answer 5xx", async () => {
  test.setTimeout(90_000);
  const { cookie, email } = await bodyTester();
  // Destructive routes (delete, log out) last, so the others still see the records and the session.
  const all = actionPaths(await seed(email));
  const destructive = (path: string) => /^\/(connectors|destinations|sources|transforms)\/details\/|^\/transforms\?index|^\/logout/.test(path);
  const paths = [...all.filter((p) => !destructive(p)), ...all.filter(destructive)];
  const huge = "x".repeat(150_000);
  const bodies: [string, string][] = [
    ["duplicated fields", "name=a&name=b&intent=create&intent=test&description=1&description=2&type=local&type=storage"],
    ["unknown fields", "zzz=1&yyy=2"],
    ["an unknown intent", "intent=explode&name=n"],
    ["a huge name", `name=${huge}&description=d&intent=create`],
    ["a huge description", `name=n&description=${huge}&intent=create`],
    ["unicode", `name=${encodeURIComponent("名前 🚀 \u202e")}%ED%A0%BD&description=%F0%9F%98%80%C3`],
    ["bad percent-encoding", "name=%E0%A4%A&description=%ZZ&%"],
    ["a long non-ASCII description (too long for the draft cookie)", `name=n&intent=authenticate&description=${encodeURIComponent("語".repeat(1_900))}`],
    ["a huge return address", `redirectTo=/${huge}`],
    ["an empty form", ""],
  ];
  const problems: string[] = [];
  for (const path of paths) {
    for (const [what, body] of bodies) {
      const sent = await post(path, cookie, body, "application/x-www-form-urlencoded");
      if (sent.status >= 500) problems.push(`${path} ${what}: ${sent.status} ${sent.text.slice(0, 160)}`);
    }
    const multipart = `--b\r\ncontent-disposition: form-data; name="name"\r\n\r\n${"y".repeat(100_000)}\r\n--b\r\ncontent-disposition: form-data; name="name"\r\n\r\nz\r\n--b--\r\n`;
    const sent = await post(path, cookie, multipart, "multipart/form-data; boundary=b");
    if (sent.status >= 500) problems.push(`${path} huge duplicated multipart: ${sent.status} ${sent.text.slice(0, 160)}`);
  }
  expect(problems, "5xx answers to well-formed forms").toEqual([]);
});

test("the page a browser shows for such a post is the app's error page with the sentence and the status", async ({ signedIn }) => {
  const response = await signedIn.request.post("/connectors/add", { headers: { "content-type": "text/plain" }, data: "name=x", maxRedirects: 0 });
  expect(response.status()).toBe(415);
  expect(response.headers()["content-type"]).toMatch(/^text\/html/);
  const html = await response.text();
  expect(html).toContain(UNSUPPORTED);
  expect(html).toContain(">415<");
});
