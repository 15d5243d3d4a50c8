import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import contentType from "content-type";
import type { ServiceErrorKind } from "../services/errors.js";

/**
 * A request the edge itself refuses (a body that is not JSON, no session, too many requests): answered as 4xx by the
 * session backend as { message }, by the public API in its own error shape. A use case's refusal is a ServiceError
 * (backend/services/errors.ts) instead, with no HTTP status of its own.
 */
export class ApiError extends Error {
  constructor(readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503 | 504, message: string) {
    super(message);
  }
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

/** The HTTP status both edges answer a use case's refusal with (backend/services/errors.ts). */
export const STATUS_OF_KIND = { invalid: 400, forbidden: 403, not_found: 404, conflict: 409, too_large: 413, rate_limited: 429, upstream: 502 } as const satisfies Record<ServiceErrorKind, number>;
