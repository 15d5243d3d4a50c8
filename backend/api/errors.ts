import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { PublicApiEnv } from "./env.js";
import { ApiError, STATUS_OF_KIND } from "../lib/requests.js";
import { ServiceError } from "../services/errors.js";
import { ConnectionTestError } from "../integrations/destinations/plugin.js";
import { redactValues } from "../lib/redact.js";
import type { ApiErrorBody, ApiErrorCode } from "../../contract/api.js";

/**
 * The public API's one error shape, `{ error: { code, message } }`. The message is the one the app's calls answer
 * (the spec's where it names one); the code is stable and follows the status, or the middleware that refused.
 */
export class PublicApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const CODE_OF_STATUS: Partial<Record<number, ApiErrorCode>> = {
  400: "invalid_request",
  401: "missing_api_key",
  403: "read_only_key",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "invalid_request",
  429: "rate_limited",
  502: "upstream_error",
  503: "unavailable",
  504: "upstream_error",
};

export const codeOfStatus = (status: number): ApiErrorCode => CODE_OF_STATUS[status] ?? (status >= 500 ? "internal_error" : "invalid_request");

export function errorBody(code: ApiErrorCode, message: string, field?: string): ApiErrorBody {
  return { error: { code, message: redactValues(message), ...(field ? { field } : {}) } };
}

/** Any error thrown by a route or a use case (ServiceError, ApiError, a plug-in's ConnectionTestError, HTTPException) as the one error shape. */
export function answerError(error: unknown, c: Context<PublicApiEnv>): Response {
  if (error instanceof PublicApiError) return c.json(errorBody(error.code, error.message), error.status, error.headers);
  if (error instanceof ServiceError) {
    const status = STATUS_OF_KIND[error.kind];
    return c.json(errorBody(codeOfStatus(status), error.message, error.field), status);
  }
  if (error instanceof ApiError || error instanceof ConnectionTestError) return c.json(errorBody(codeOfStatus(error.status), error.message), error.status);
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    return c.json(errorBody(codeOfStatus(status), error.message || "Bad request"), status);
  }
  c.var.services?.log.error({ err: error, path: c.req.path }, "public API: unhandled error");
  return c.json(errorBody("internal_error", "Something went wrong on our side. Please try again."), 500);
}
