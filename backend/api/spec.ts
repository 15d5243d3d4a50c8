import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { apiErrorSchema } from "../../contract/api.js";
import { JSON_ONLY_MESSAGE, sendsNonJson } from "../lib/requests.js";
import { PublicApiError } from "./errors.js";

/** Helpers that keep every route of the document alike: bearer security, the one error shape, JSON bodies. */

export const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ content: { "application/json": { schema } }, description });

/** A JSON request body (documented; the shared functions check it with the same contract/ schemas as the app's calls). */
export const jsonRequest = <T extends z.ZodTypeAny>(schema: T) => ({ content: { "application/json": { schema } }, required: true });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "The request is not valid (the message says what to change).",
  401: "No API key, or one that is unknown, revoked or expired.",
  403: "A read-only key asked for a write.",
  404: "No such record of the key's owner (another user's record is absent too).",
  409: "The record is in use, a run is already open, or the same Idempotency-Key is still being answered.",
  413: "The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs).",
  415: "The body is not JSON: send it with Content-Type: application/json.",
  422: "The Idempotency-Key was used with another request.",
  429: "Too many requests for this key: wait for Retry-After seconds.",
};

const errorResponse = (status: number) => ({ content: { "application/json": { schema: apiErrorSchema } }, description: ERROR_DESCRIPTIONS[status] ?? "Error" });

/** `Idempotency-Key` of every POST. */
export const idempotencyHeaders = z.object({
  "idempotency-key": z.string().max(255).optional().describe("Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once."),
});

/**
 * A body that is not JSON is refused before the body's schema is checked: the validator would otherwise check `{}`
 * and answer that a field sent (form-encoded, curl -d's default) is missing. No body at all is checked as `{}`.
 */
const jsonOnly: MiddlewareHandler = async (c, next) => {
  if (sendsNonJson((name) => c.req.header(name))) throw new PublicApiError(415, "unsupported_media_type", JSON_ONLY_MESSAGE);
  await next();
};

/**
 * A route of the public API: bearer key required, with the errors every route can answer and those its method adds,
 * and an operationId (`listConnectors`, `triggerSync`, …), the name a generated client gives its call.
 */
export function apiRoute<R extends RouteConfig & { operationId: string }>(config: R): R {
  const writes = config.method !== "get";
  const body = config.request?.body !== undefined;
  const statuses = [400, 401, ...(writes ? [403] : []), 404, ...(writes ? [409] : []), ...(body ? [413, 415] : []), ...(config.method === "post" ? [422] : []), 429];
  const errors = Object.fromEntries(statuses.map((s) => [s, errorResponse(s)]));
  const middleware = body ? [jsonOnly, ...[config.middleware ?? []].flat()] : config.middleware;
  return createRoute({ ...config, ...(middleware ? { middleware } : {}), security: [{ bearerAuth: [] }], responses: { ...errors, ...config.responses } });
}
