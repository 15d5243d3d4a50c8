import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { HTTPException } from "hono/http-exception";
import contentType from "content-type";
import type { z } from "zod";
import type { Database } from "../db/client.js";
import type { Logger } from "../lib/log.js";
import type { Config } from "../config.js";
import type { IdentityExchange } from "../auth/identity.js";
import type { SecretBox } from "../lib/crypto.js";
import type { JobQueue } from "../jobs/queue.js";
import type { ChangeFeed } from "../db/changes.js";
import { findSessionUser, type SessionUser } from "../auth/sessions.js";
import { DATA_VERSION_HEADER, SESSION_COOKIE } from "../../contract/auth.js";

export interface Services {
  db: Database;
  log: Logger;
  config: Config;
  identity: IdentityExchange;
  /** Seals secrets (tokens, passwords, keys) before they are stored; see backend/lib/crypto.ts. */
  secrets: SecretBox;
  /** The job queue runs are sent through (backend/jobs/queue.ts). */
  queue: JobQueue;
  /** Each user's data version, moved by every write to what their pages show (backend/db/changes.ts). */
  changes: ChangeFeed;
  /** Why this process should get no traffic now (stopping, no database), or null: ready (GET /readyz). */
  unready: () => Promise<string | null>;
}

export type ApiEnv = { Variables: { user: SessionUser; services: Services } };

/** A problem with the request the caller can fix: answered as 4xx { message }. */
export class ApiError extends Error {
  constructor(readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503 | 504, message: string) {
    super(message);
  }
}

export function parse<S extends z.ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ApiError(400, issue.message);
  }
  return result.data;
}

export const JSON_ONLY_MESSAGE = "Send the body as JSON (Content-Type: application/json).";

/** Whether a Content-Type header is exactly application/json (parameters such as charset aside). */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  try {
    return contentType.parse(header).type === "application/json";
  } catch {
    return false;
  }
}

/**
 * Whether a request carries something other than JSON: a Content-Type that is not application/json, or a body
 * (a length above 0, or chunks) with no Content-Type at all. A request with neither carries nothing.
 */
export function sendsNonJson(header: (name: string) => string | undefined): boolean {
  const type = header("content-type");
  if (type !== undefined) return !isJsonContentType(type);
  const length = header("content-length");
  return header("transfer-encoding") !== undefined || (length !== undefined && length.trim() !== "0");
}

export async function jsonBody(c: Context): Promise<unknown> {
  if (!isJsonContentType(c.req.header("content-type"))) throw new ApiError(415, JSON_ONLY_MESSAGE);
  let text: string;
  try {
    text = await c.req.text();
  } catch (error) {
    // The body limit (backend/http/app.ts) answers for itself; anything else is a broken upload.
    if (error instanceof HTTPException) throw error;
    throw new ApiError(400, "The request body could not be read.");
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, "The request body is not valid JSON.");
  }
}

/**
 * Every resource route runs as the session's user; no session, no data. A GET answer carries the user's data
 * version, read before the route reads anything (DATA_VERSION_HEADER): what it answers is never older than that.
 */
export const requireSession: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const token = getCookie(c, SESSION_COOKIE);
  const user = token ? await findSessionUser(c.var.services.db, token) : null;
  if (!user) return c.json({ message: "User not authenticated" }, 401);
  c.set("user", user);
  if (c.req.method === "GET") c.header(DATA_VERSION_HEADER, c.var.services.changes.version(user.id));
  await next();
};
