import { Hono, type Context } from "hono";
import { z } from "zod";
import { ApiError, jsonBody, parse, requireSession, type ApiEnv } from "./context.js";
import { findCredential, insertCredential, serviceAccountCredential } from "../db/destinations.js";
import {
  checkSubForm,
  DESTINATION_INTEGRATIONS,
  DESTINATION_MESSAGES as M,
  googleInstructionsSchema,
  googleTestSchema,
  snowflakeSchema,
  snowflakeVariant,
  type GoogleIntegration,
  type ServiceAccountInfo,
  type SnowflakeIntegration,
  type TestConnectionResult,
} from "../../contract/destinations.js";
import { localDestinationAllowed } from "../integrations/destinations/local.js";
import { AccessCheckError, checkBucketAccess, checkDatasetAccess, platformServiceAccount, ServiceAccountError, type PlatformServiceAccount } from "../integrations/destinations/google.js";
import { googleInstructions, snowflakeInstructions } from "../integrations/destinations/instructions.js";
import { checkSnowflakeAccess } from "../integrations/destinations/snowflake.js";
import { boundValues } from "../integrations/destinations/validation-token.js";
import { validationTokens } from "../integrations/destinations/tokens.js";
import { connectionTestSlot, TooManyConnectionTests } from "../lib/outbound.js";

/**
 * Spec §7 "Destinations": the integration list and the /externalauth calls of
 * Cloud Storage ("storage", also reachable as "gcs"), BigQuery and Snowflake
 * (both variants). Paths are listed one by one so that the sources' own
 * /externalauth/{integration}/… calls (e.g. gmail/test_connection) are untouched.
 */
export const destinationIntegrationsRoutes = new Hono<ApiEnv>();

const GOOGLE_PATHS: Record<string, GoogleIntegration> = { storage: "storage", gcs: "storage", bigquery: "bigquery" };
const SNOWFLAKE_PATHS = ["snowflake", "snowflake_stage"] as const;

destinationIntegrationsRoutes.use("/integrations/destinations", requireSession);
for (const key of [...Object.keys(GOOGLE_PATHS), ...SNOWFLAKE_PATHS]) destinationIntegrationsRoutes.use(`/externalauth/${key}/*`, requireSession);

destinationIntegrationsRoutes.get("/integrations/destinations", (c) => {
  const destinations = DESTINATION_INTEGRATIONS.filter((i) => i.name !== "local" || localDestinationAllowed()).map(({ name, label }) => ({ name, label }));
  return c.json({ status: "success", data: { destinations } });
});

function serviceAccount(): PlatformServiceAccount {
  try {
    return platformServiceAccount();
  } catch (error) {
    if (error instanceof ServiceAccountError) throw new ApiError(422, error.message);
    throw error;
  }
}

async function body(c: Context<ApiEnv>): Promise<unknown> {
  // These calls may come with an empty body (everything optional); anything sent must be JSON.
  if (!c.req.header("content-type") && !(await c.req.text()).trim()) return {};
  return jsonBody(c);
}

function testFailure(error: unknown): never {
  if (error instanceof AccessCheckError) throw new ApiError(error.timedOut ? 504 : error.unreachable ? 502 : 422, `Connection test failed: ${error.message}`);
  throw error;
}

/** A connection test of the signed-in user, within their cap of tests at once (429 beyond it). */
async function test(c: Context<ApiEnv>, work: () => Promise<void>): Promise<void> {
  try {
    await connectionTestSlot(c.var.user.id, work);
  } catch (error) {
    if (error instanceof TooManyConnectionTests) throw new ApiError(429, error.message);
    throw error;
  }
}

const integrationMatches = (integration: string) =>
  z.object({ integration_name: z.string().optional() }).passthrough().refine((b) => !b.integration_name || GOOGLE_PATHS[b.integration_name] === integration, {
    message: "integration_name does not match the integration in the URL",
    path: ["integration_name"],
  });

for (const [key, integration] of Object.entries(GOOGLE_PATHS)) {
  destinationIntegrationsRoutes.post(`/externalauth/${key}/service_account`, async (c) => {
    parse(integrationMatches(integration), await body(c));
    const account = serviceAccount();
    const credential = await serviceAccountCredential(c.var.services.db, c.var.user.id, integration, account.client_email);
    const details = googleInstructions({ integration, email: account.client_email });
    const answer: ServiceAccountInfo = {
      service_account_email: account.client_email,
      credential_id: credential.id,
      instructions: details.instructions,
      description: details.description,
      status: "success",
      message: "Grant this service account access as described, then authenticate.",
    };
    return c.json(answer);
  });

  destinationIntegrationsRoutes.post(`/externalauth/${key}/get_instructions`, async (c) => {
    const v = parse(googleInstructionsSchema, await body(c));
    const account = serviceAccount();
    return c.json(
      googleInstructions({
        integration,
        email: account.client_email,
        projectId: v.project_id,
        bucketName: v.bucket_name,
        datasetName: v.dataset_name,
        permissionType: v.permission_type,
      }),
    );
  });

  destinationIntegrationsRoutes.post(`/externalauth/${key}/test_connection`, async (c) => {
    const raw = await jsonBody(c);
    parse(integrationMatches(integration), raw);
    const v = parse(
      googleTestSchema.superRefine((x, ctx) => checkSubForm({ ...x, integration_name: integration }, ctx, "test")),
      raw,
    );
    if (integration === "storage" && v.permission_type === "dataset_query_access") throw new ApiError(400, "dataset_query_access is a BigQuery permission type");
    const credential = await findCredential(c.var.services.db, c.var.user.id, v.credential_id);
    if (!credential || credential.integrationName !== integration) throw new ApiError(400, "Integration details are missing. Please re-select the integration type.");
    const account = serviceAccount();
    if (credential.metadata.service_account_email !== account.client_email) {
      throw new ApiError(400, "Service account information is not available. Please re-select an integration type.");
    }
    const permission = v.permission_type ?? "dataset_write";
    await test(c, async () => {
      try {
        if (integration === "storage") await checkBucketAccess(account, v.project_id!, v.bucket_name!);
        else await checkDatasetAccess(account, v.project_id!, v.dataset_name);
      } catch (error) {
        testFailure(error);
      }
    });
    const values = { ...v, permission_type: permission };
    const answer: TestConnectionResult = {
      status: "success",
      message:
        integration === "storage"
          ? `Connection successful: Tributary can write, read and delete objects in bucket ${v.bucket_name}.`
          : `Connection successful: Tributary can ${v.dataset_name ? `read dataset ${v.dataset_name} and ` : ""}run queries in project ${v.project_id}.`,
      credential_id: credential.id,
      validation_token: validationTokens(c.var.services.config.TRIBUTARY_SECRET_KEY).sign(c.var.user.id, integration, credential.id, boundValues(integration, values)),
    };
    return c.json(answer);
  });
}

function variantOf(key: (typeof SNOWFLAKE_PATHS)[number], category: string | undefined): SnowflakeIntegration {
  return key === "snowflake_stage" ? "snowflake_stage" : snowflakeVariant(category);
}

for (const key of SNOWFLAKE_PATHS) {
  destinationIntegrationsRoutes.post(`/externalauth/${key}/get_instructions`, async (c) => {
    const v = parse(snowflakeSchema, await body(c));
    const variant = variantOf(key, v.category);
    return c.json(snowflakeInstructions({ variant, user: v.user, warehouse: v.warehouse, database: v.database, schema: v.schema, stageName: v.stage_name }));
  });

  destinationIntegrationsRoutes.post(`/externalauth/${key}/test_connection`, async (c) => {
    const raw = await jsonBody(c);
    const category = (raw as { category?: unknown } | null)?.category;
    const variant = variantOf(key, typeof category === "string" ? category : undefined);
    const v = parse(
      snowflakeSchema.superRefine((x, ctx) => checkSubForm({ ...x, integration_name: variant }, ctx, "test")),
      raw,
    );
    const target = { account: v.account!, user: v.user!, password: v.password!, warehouse: v.warehouse, database: v.database!, schema: v.schema!, stageName: v.stage_name };
    await test(c, async () => {
      try {
        await checkSnowflakeAccess(target, variant);
      } catch (error) {
        if (error instanceof AccessCheckError && /incorrect username or password/i.test(error.message)) throw new ApiError(422, M.credentialsFailed);
        testFailure(error);
      }
    });
    const { db, secrets, config } = c.var.services;
    const credential = await insertCredential(db, c.var.user.id, {
      integrationName: variant,
      secret: secrets.seal({ password: v.password }),
      metadata: { account: v.account!.toLowerCase(), user: v.user!.toUpperCase() },
    });
    const answer: TestConnectionResult = {
      status: "success",
      message: "Connection successful",
      credential_id: credential.id,
      validation_token: validationTokens(config.TRIBUTARY_SECRET_KEY).sign(c.var.user.id, variant, credential.id, boundValues(variant, v)),
    };
    return c.json(answer);
  });
}
