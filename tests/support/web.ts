import http, { type IncomingHttpHeaders } from "node:http";
import { DomUtils, parseDocument } from "htmlparser2";
import type { UserInfo } from "../../contract/auth.js";
import { env, readEnv } from "../../app/services/env.server.js";
import { sessionStorage } from "../../app/services/session.server.js";

/**
 * The web server's side of a signed-in browser, for tests that ask a real web server (scripts/serve-app.ts) for pages
 * over HTTP.
 */

/**
 * The Cookie header of a browser signed in as `user`: the backend's session cookie (`backendCookie`, from
 * createUserSession or signIn in backend.ts) and the web app's own signed session holding the user info, signed by the
 * app's session storage with the key the web servers run with (`secretKey`, their TRIBUTARY_SECRET_KEY). The app reads
 * its key once per process: one key per test file.
 */
export async function webSessionCookie(secretKey: string, user: UserInfo, backendCookie: string): Promise<string> {
  process.env.TRIBUTARY_SECRET_KEY = secretKey;
  if (env().cookieSecret !== readEnv({ ...process.env, TRIBUTARY_SECRET_KEY: secretKey }).cookieSecret) {
    throw new Error("webSessionCookie: this process already signs the app's cookies with another TRIBUTARY_SECRET_KEY");
  }
  const storage = sessionStorage();
  const session = await storage.getSession();
  session.set("user_info", user);
  const setCookie = await storage.commitSession(session);
  return `${backendCookie}; ${setCookie.split(";")[0]}`;
}

/**
 * The rows of a list page's table (app/components/ui/data-table.tsx): each row's record id (the last part of the
 * address it links to) and its cells' text by column header, as the page shows them (React's comment markers are not
 * text).
 */
export function tableRows(html: string): { id: string; cells: Record<string, string> }[] {
  const document = parseDocument(html);
  type Node = (typeof document.children)[number];
  const all = (name: string, within: Node[]) => DomUtils.findAll((element) => element.name === name, within);
  const text = (node: Node) => DomUtils.textContent(node).trim();
  const [head] = all("thead", document.children);
  const [body] = all("tbody", document.children);
  if (!head || !body) throw new Error(`the page has no table: ${text(document).slice(0, 300)}`);
  const headers = all("th", head.children).map(text);
  return all("tr", body.children).map((row) => {
    const href = row.attribs["data-href"];
    if (!href) throw new Error(`a table row without a link: ${text(row).slice(0, 200)}`);
    const cells = all("td", row.children).map(text);
    return { id: href.split("/").at(-1)!, cells: Object.fromEntries(headers.map((header, i) => [header, cells[i] ?? ""])) };
  });
}

/**
 * A GET of `path` sent exactly as written, dot segments and percent-escapes included (node:http sends the request
 * target it is given, as `curl --path-as-is` does; fetch would normalise it first), to the server at `base`.
 */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.get({ host: hostname, port, path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.setTimeout(10_000, () => request.destroy(new Error(`GET ${path} had no answer within 10 s`)));
    request.on("error", reject);
  });
}
