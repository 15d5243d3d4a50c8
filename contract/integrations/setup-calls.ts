import { z } from "zod";
import { storable } from "../text.js";

/**
 * The /externalauth/<source>/<call> calls a source manifest declares (spec §7 "Sources and integrations"): each call's
 * method, the body it takes and the answer it gives. The session backend's table of answers (contract/responses.ts)
 * is derived from the manifests' declarations, and the plug-in's calls (backend/integrations/sources/<name>/plugin.ts)
 * must be exactly those it declares (tests/unit/source-manifests.test.ts). The schemas every source shares live here.
 */

export interface SetupCallDeclaration {
  method: "GET" | "POST";
  /** The JSON body it reads (none for a GET). */
  body?: z.ZodTypeAny;
  /** The schema of its 2xx JSON answer. */
  answer: z.ZodTypeAny;
}

/** Declares a setup call, keeping its literal method and its schemas' types. */
export const call = <const M extends "GET" | "POST", A extends z.ZodTypeAny, B extends z.ZodTypeAny | undefined = undefined>(method: M, answer: A, body?: B) =>
  ({ method, answer, ...(body ? { body } : {}) }) as { method: M; answer: A; body: B };

export const credentialIdSchema = storable(
  z.string({ required_error: "credential_id is required", invalid_type_error: "credential_id must be text" }).trim().min(1, "credential_id is required").max(100),
  "credential_id",
);
export const credentialBodySchema = z.object({ credential_id: credentialIdSchema });

export const oauthCallbackBodySchema = z.object({
  code: storable(z.string({ required_error: "code is required", invalid_type_error: "code must be text" }).min(1, "code is required").max(4096), "code"),
});

export const sourceSetupStepSchema = z.object({
  title: z.string(),
  details: z.string(),
  code_block: z.string().optional(),
  options: z.array(z.object({ sub_title: z.string(), code_block: z.string() })).optional(),
});
export type SetupStep = z.infer<typeof sourceSetupStepSchema>;
/** Setup steps (Teams' per team, a Workspace's delegation), and the instructions a callback may carry. */
export const setupInstructionsSchema = z.object({ introduction: z.string(), steps: z.array(sourceSetupStepSchema) });
export type SetupInstructions = z.infer<typeof setupInstructionsSchema>;

/** POST /externalauth/{integration}/callback */
export const callbackResponseSchema = z.object({
  credential_id: z.string(),
  instructions: setupInstructionsSchema.nullable(),
  setup_verified: z.boolean(),
  message: z.string(),
});
export type CallbackResponse = z.infer<typeof callbackResponseSchema>;

/** GET /externalauth/{integration}/auth_url: the provider's consent page, and the state it returns with. */
export const authUrlResponseSchema = z.object({ auth_url: z.string(), state: z.string() });

/** A verification's answer (POST /externalauth/teams/verify-setup and the generic one). */
export const verifySetupResponseSchema = z.object({ success: z.boolean(), message: z.string() });

/** A connection test answered 200 either way: a provider's refusal is a "failed" verification. */
export const connectionTestResponseSchema = z.object({ status: z.enum(["success", "failed"]), message: z.string() });

/** The modes an authentication type select offers (GET /externalauth/<name>/get_auth_options), and the one it starts with. */
export const authOptionsResponseSchema = z.object({ options: z.array(z.object({ mode: z.string(), label: z.string() })), default: z.string() });

/** A Google group (Directory groups.list), as a Workspace source's group list shows it. */
export const googleGroupSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type GoogleGroup = z.infer<typeof googleGroupSchema>;

/** The calls of an OAuth source: the consent page's address, and the code's exchange. */
export const oauthCalls = { auth_url: call("GET", authUrlResponseSchema), callback: call("POST", callbackResponseSchema, oauthCallbackBodySchema) };
