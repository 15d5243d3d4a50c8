import type { MiddlewareHandler } from "hono";
import type { Logger } from "../lib/log.js";
import type { z } from "zod";
import { BACKEND_RESPONSES, BACKEND_STREAMS, backendErrorSchema } from "../../contract/responses.js";
import type { ApiEnv } from "./context.js";

/**
 * Every answer of the session backend checked against contract/responses.ts (issue 38): on when CHECK_RESPONSES is
 * set, as the tests set it, so that a route whose answer drifts from what the web app parses fails the test that
 * calls it instead of a page in production. A 2xx JSON answer must match its route's schema, any other JSON answer
 * the error shape; an answer that does not is replaced by a 500 naming the route and the fields at fault (never
 * their values: an answer can hold what a user typed).
 */

interface RoutePattern {
  key: string;
  method: string;
  pattern: RegExp;
  /** Literal segments: "GET /templates/categories" wins over "GET /templates/:id". */
  literals: number;
}

function compile(key: string): RoutePattern {
  const [method, path] = key.split(" ") as [string, string];
  const segments = path.split("/").filter(Boolean);
  const source = segments.map((s) => (s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
  return { key, method, pattern: new RegExp(`^/${source}/?$`), literals: segments.filter((s) => !s.startsWith(":")).length };
}

const PATTERNS = [...Object.keys(BACKEND_RESPONSES), ...BACKEND_STREAMS].map(compile);
const STREAMS = new Set<string>(BACKEND_STREAMS);

/** The table's key for a request (HEAD answers as GET), or undefined when no route of the table matches. */
export function routeKeyFor(method: string, path: string): string | undefined {
  const verb = method === "HEAD" ? "GET" : method;
  let best: RoutePattern | undefined;
  for (const p of PATTERNS) {
    if (p.method === verb && p.pattern.test(path) && (!best || p.literals > best.literals)) best = p;
  }
  return best?.key;
}

/** Where an answer breaks its schema: the paths and kinds of the issues, without values. */
function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(body)"}: ${i.code}`)
    .join("; ");
}

/** Why an answer does not match its route's schema, or undefined when it does (or is not JSON the table describes). */
export async function answerProblem(method: string, path: string, response: Response): Promise<string | undefined> {
  const key = routeKeyFor(method, path);
  if (method === "HEAD" || (key && STREAMS.has(key))) return undefined;
  const type = response.headers.get("content-type") ?? "";
  const ok = response.status >= 200 && response.status < 300;
  if (!ok) {
    if (!type.includes("application/json")) return undefined; // redirects and the like
    const parsed = backendErrorSchema.safeParse(await response.clone().json());
    return parsed.success ? undefined : `${method} ${path} (${response.status}) is not the error shape: ${describe(parsed.error)}`;
  }
  if (!key) return `${method} ${path} answered ${response.status} but no route of contract/responses.ts matches it`;
  const text = await response.clone().text();
  if (text !== "" && !type.includes("application/json")) return `${key} answered ${type || "no content type"}, not JSON`;
  const schema = BACKEND_RESPONSES[key as keyof typeof BACKEND_RESPONSES] as z.ZodTypeAny;
  const parsed = schema.safeParse(text === "" ? null : JSON.parse(text));
  return parsed.success ? undefined : `${key} does not match its schema: ${describe(parsed.error)}`;
}

export function responseCheck(log: Logger): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    await next();
    const problem = await answerProblem(c.req.method, c.req.path, c.res);
    if (!problem) return;
    log.error({ path: c.req.path, problem }, "answer does not match its schema");
    c.res = undefined; // not merged with the refused answer's headers (its length among them)
    c.res = new Response(JSON.stringify({ message: `The answer does not match its schema: ${problem}` }), {
      status: 500,
      headers: { "content-type": "application/json" },
    });
  };
}
