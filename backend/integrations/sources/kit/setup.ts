import type { z } from "zod";
import { randomToken } from "../../../lib/crypto.js";
import type { CallbackResponse } from "../../../../contract/sources.js";
import { insertCredential, setStatusByCredential, updateCredential, type CredentialRow } from "../../../db/sources.js";
import { SetupError, type SetupCall, type SetupContext, type Verification } from "../plugin.js";
import { ProviderError } from "./config.js";

/** GET auth_url of an OAuth source: the provider's consent URL for a fresh random state. */
export function authUrlCall<C>(config: () => C, urlFor: (config: C, redirectUri: string, state: string) => string): SetupCall {
  return {
    method: "GET",
    async run(ctx: SetupContext) {
      const settings = config();
      const state = randomToken(24);
      return { auth_url: urlFor(settings, ctx.redirectUri, state), state };
    },
  };
}

/** A body checked against its schema: the first problem is a 400 with its message. */
export function parseBody<S extends z.ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new SetupError(400, result.error.issues[0]!.message);
  return result.data;
}

/**
 * The callback's new credential of the caller, authenticated now (its metadata records when), and the callback's
 * answer naming it: the instructions to follow, whether its setup is verified, the message.
 */
export async function authenticated(
  ctx: SetupContext,
  credential: { integrationName: string; secret: string | null; metadata: Record<string, unknown> },
  answer: Omit<CallbackResponse, "credential_id">,
): Promise<CallbackResponse> {
  const metadata = { ...credential.metadata, authenticated_at: new Date().toISOString() };
  const row = await insertCredential(ctx.services.db, ctx.userId, { ...credential, metadata });
  return { credential_id: row.id, ...answer };
}

/**
 * A POST setup call on one of the caller's credentials: the body, checked against its schema (which names the
 * credential_id), then the credential (a 404 when it is not the caller's).
 */
export function credentialCall<S extends z.ZodType<{ credential_id: string }, z.ZodTypeDef, unknown>>(
  schema: S,
  run: (ctx: SetupContext, credential: CredentialRow, body: z.infer<S>) => Promise<unknown>,
): SetupCall {
  return {
    method: "POST",
    async run(ctx: SetupContext) {
      const body = parseBody(schema, await ctx.body());
      return run(ctx, await ctx.ownedCredential(body.credential_id), body);
    },
  };
}

/**
 * A verification of a credential's setup (Teams verify-setup, Gmail test_connection), run as a connection test and
 * recorded in the credential's metadata; the credential's sources become "active" or "error" with it. A provider's
 * refusal is a failed verification; a configuration problem or a silent provider records nothing.
 */
export async function recordVerification(
  ctx: SetupContext,
  credential: CredentialRow,
  covers: Omit<Verification, "status" | "message" | "at">,
  test: () => Promise<string>,
): Promise<Verification> {
  const { db } = ctx.services;
  const at = new Date().toISOString();
  const verification = await ctx.connectionTest(async (): Promise<Verification> => {
    try {
      return { status: "success", ...covers, message: await test(), at };
    } catch (error) {
      if (!(error instanceof ProviderError) || error.timedOut) throw error;
      return { status: "failed", ...covers, message: error.message, at };
    }
  });
  await updateCredential(db, ctx.userId, credential.id, { metadata: { ...credential.metadata, verification } });
  await setStatusByCredential(db, ctx.userId, credential.id, verification.status === "success" ? "active" : "error");
  return verification;
}
