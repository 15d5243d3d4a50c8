import type { z } from "zod";
import { randomToken } from "../../../lib/crypto.js";
import { setStatusByCredential, updateCredential, type CredentialRow } from "../../../db/sources.js";
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
