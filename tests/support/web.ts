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

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };

/** A fragment of rendered HTML as the text it shows (tags and React's comment markers left out). */
function shownText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name]!)
    .trim();
}

/**
 * The rows of a list page's table (app/components/ui/data-table.tsx): each row's record id (the last part of the
 * address it links to) and its cells' text by column header.
 */
export function tableRows(html: string): { id: string; cells: Record<string, string> }[] {
  const head = /<thead\b[\s\S]*?<\/thead>/.exec(html)?.[0];
  const body = /<tbody\b[\s\S]*?<\/tbody>/.exec(html)?.[0];
  if (!head || !body) throw new Error(`the page has no table: ${shownText(html).slice(0, 300)}`);
  const headers = [...head.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((m) => shownText(m[1]!));
  return [...body.matchAll(/<tr\b([^>]*)>([\s\S]*?)<\/tr>/g)].map(([, attributes, row]) => {
    const href = /data-href="([^"]*)"/.exec(attributes!)?.[1];
    if (!href) throw new Error(`a table row without a link: ${shownText(row!).slice(0, 200)}`);
    const cells = [...row!.matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/g)].map((m) => shownText(m[1]!));
    return { id: href.split("/").at(-1)!, cells: Object.fromEntries(headers.map((header, i) => [header, cells[i] ?? ""])) };
  });
}
