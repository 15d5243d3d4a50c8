import type { z } from "zod";

/**
 * Why a use case refused: the input is not valid (with the field it names, where there is one), the record is not the
 * actor's to see, it is not theirs to take (an invitation sent to another address), it conflicts with another record or run, it is too large to answer, the actor asked too often, or a
 * provider failed. Each edge maps the kind to its own status and error shape (backend/http/app.ts, backend/api/errors.ts).
 */
export type ServiceErrorKind = "invalid" | "forbidden" | "not_found" | "conflict" | "too_large" | "rate_limited" | "upstream";

export class ServiceError extends Error {
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    /** The input field the message is about (a form puts it next to that field). */
    readonly field?: string,
  ) {
    super(message);
  }
}

export const invalid = (message: string, field?: string) => new ServiceError("invalid", message, field);
export const notFound = (message: string) => new ServiceError("not_found", message);
export const forbidden = (message: string) => new ServiceError("forbidden", message);
export const conflict = (message: string, field?: string) => new ServiceError("conflict", message, field);

/** Parses with a zod schema; the first issue's message is the refusal. */
export function parse<S extends z.ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(result.error.issues[0]!.message);
  return result.data;
}

/** Parses a JSON object with a zod schema; the first issue's message is the refusal, naming its field. */
export function parseFields<S extends z.ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw invalid("The request body must be a JSON object.");
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw invalid(issue.message, issue.path.join(".") || undefined);
  }
  return result.data;
}
