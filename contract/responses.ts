import { z } from "zod";
import { googleCallbackResponseSchema, validSessionResponseSchema } from "./auth.js";
import { sourceIntegrationsResponseSchema, sourceSchema } from "./sources.js";
import { SOURCE_MANIFESTS } from "./integrations/sources.js";
import type { SetupCallDeclaration } from "./integrations/setup-calls.js";
import {
  destinationCreatedSchema,
  destinationDeletedSchema,
  destinationIntegrationsResponseSchema,
  destinationSchema,
  destinationUpdatedSchema,
  integrationInstructionsSchema,
  serviceAccountInfoSchema,
  testConnectionResultSchema,
} from "./destinations.js";
import {
  compatibleDestinationsResponseSchema,
  compatiblePlatformsResponseSchema,
  connectorDetailsSchema,
  connectorSavedSchema,
  connectorSchema,
  lookbackOptionsResponseSchema,
  pausedResponseSchema,
  streamSwitchedResponseSchema,
  streamResyncedResponseSchema,
  syncQueuedResponseSchema,
  syncRunSchema,
} from "./connectors.js";
import { runAnswerSchema, runsPageSchema, runsVersionSchema, syncRunDetailsSchema, transformRunDetailsSchema } from "./runs.js";
import { cancelResponseSchema } from "./run-operations.js";
import { schedulePreviewSchema } from "./schedules.js";
import {
  draftValidResponseSchema,
  inputConstantsSchema,
  previewResponseSchema,
  setupStepsResponseSchema,
  templateCategoriesResponseSchema,
  templateInputsResponseSchema,
  templatesResponseSchema,
  templateWithDestinationSchema,
  transformConfigSchema,
  transformCreatedSchema,
  transformDetailSchema,
  transformResultsSchema,
  transformChartsSchema,
  transformRunQueuedSchema,
  transformRunSchema,
  transformSavedSchema,
  transformSchema,
} from "./transforms.js";
import { alertSettingsSavedSchema, alertSettingsSchema, confirmationSentSchema, emailConfirmedSchema } from "./alerts.js";
import { apiKeyListSchema, createdApiKeySchema, revokedApiKeySchema } from "./api-keys.js";
import { activityPageSchema, recordAuthorsSchema, runTriggeredByFields } from "./activity.js";
import { invitationDoneSchema, invitationOfferSchema, membersPageSchema, messageOnlySchema, workspaceDoneSchema, workspacesSchema } from "./workspaces.js";

/**
 * What each route of the session backend (backend/http, spec §7) answers, in one table (issue 38 item 1): the key is
 * the route as Hono registers it ("METHOD /path/:param"; the /externalauth/<source>/<call> dispatcher written out call
 * by call), the value the schema of its 2xx JSON body as the backend sends it. The backend's tests check every answer
 * against it (backend/http/response-check.ts, CHECK_RESPONSES), and the web app's client checks every answer it reads
 * (app/services/backend.server.ts callBackend). The public API (/api/v1) has its own schemas (contract/api.ts).
 */

/** A route answering no body (204, or an empty 2xx): the check reads the empty body as null. */
export const NO_CONTENT = z.null();

/**
 * Every non-2xx JSON answer of the session backend: the sentence to show, and, for a form's field error (transforms,
 * templates, schedules), the field it is about. (/readyz adds its `status`.)
 */
export const backendErrorSchema = z.object({ message: z.string(), field: z.string().optional() });
export type BackendError = z.infer<typeof backendErrorSchema>;

/** `{ message }`: a delete, a logout, a revoke. */
const messageSchema = z.object({ message: z.string() });

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** One manifest's calls as routes: "POST /externalauth/zoom/get-groups" → the answer's schema. */
type SetupRoutes<M> = M extends { name: infer N extends string; setupCalls: infer C }
  ? { [K in keyof C & string as `${C[K] extends { method: infer Me extends string } ? Me : never} /externalauth/${N}/${K}`]: C[K] extends { answer: infer A } ? A : never }
  : never;

/** The source plug-ins' setup calls, from their manifests' declarations (contract/integrations/<name>.ts `setupCalls`). */
const SOURCE_SETUP_CALLS = Object.fromEntries(
  SOURCE_MANIFESTS.flatMap((m) => Object.entries(m.setupCalls as Record<string, SetupCallDeclaration>).map(([name, c]) => [`${c.method} /externalauth/${m.name}/${name}`, c.answer])),
) as UnionToIntersection<SetupRoutes<(typeof SOURCE_MANIFESTS)[number]>>;

/** The destination plug-ins' calls (backend/http/destination-integrations.ts: Cloud Storage answers as "storage" and "gcs"). */
const DESTINATION_SETUP_CALLS = {
  "POST /externalauth/storage/service_account": serviceAccountInfoSchema,
  "POST /externalauth/storage/get_instructions": integrationInstructionsSchema,
  "POST /externalauth/storage/test_connection": testConnectionResultSchema,
  "POST /externalauth/gcs/service_account": serviceAccountInfoSchema,
  "POST /externalauth/gcs/get_instructions": integrationInstructionsSchema,
  "POST /externalauth/gcs/test_connection": testConnectionResultSchema,
  "POST /externalauth/bigquery/service_account": serviceAccountInfoSchema,
  "POST /externalauth/bigquery/get_instructions": integrationInstructionsSchema,
  "POST /externalauth/bigquery/test_connection": testConnectionResultSchema,
  "POST /externalauth/snowflake/get_instructions": integrationInstructionsSchema,
  "POST /externalauth/snowflake/test_connection": testConnectionResultSchema,
  "POST /externalauth/snowflake_stage/get_instructions": integrationInstructionsSchema,
  "POST /externalauth/snowflake_stage/test_connection": testConnectionResultSchema,
  "POST /externalauth/postgres/get_instructions": integrationInstructionsSchema,
  "POST /externalauth/postgres/test_connection": testConnectionResultSchema,
} as const;

export const BACKEND_RESPONSES = {
  // For a load balancer (a 503 while not ready is { status: "unavailable", message }).
  "GET /healthz": z.object({ status: z.enum(["ok"]) }),
  "GET /readyz": z.object({ status: z.enum(["ready"]) }),

  // Sign-in and the session.
  "POST /auth/google/callback": googleCallbackResponseSchema,
  "GET /validate-session": validSessionResponseSchema,
  "POST /auth/logout": messageSchema,

  // Sources (the lists' total in X-Total-Count).
  "GET /sources/list": z.array(sourceSchema),
  "GET /sources/list-all": z.array(sourceSchema),
  "GET /sources/list-by-id/:id": sourceSchema,
  "POST /sources/create": sourceSchema.extend({ message: z.string() }),
  "PUT /sources/update/:id": sourceSchema.extend({ message: z.string() }),
  "DELETE /sources/delete/:id": messageSchema,
  "GET /integrations/sources": sourceIntegrationsResponseSchema,
  ...SOURCE_SETUP_CALLS,

  // Destinations.
  "GET /destinations/list": z.array(destinationSchema),
  "GET /destinations/list-all": z.array(destinationSchema),
  "GET /destinations/list-by-id/:id": destinationSchema,
  "POST /destinations/create": destinationCreatedSchema,
  "PUT /destinations/update/:id": destinationUpdatedSchema,
  "DELETE /destinations/delete/:id": destinationDeletedSchema,
  "GET /integrations/destinations": destinationIntegrationsResponseSchema,
  ...DESTINATION_SETUP_CALLS,

  // Connectors.
  "GET /integrations/:integration_id/compatible-platforms": compatiblePlatformsResponseSchema,
  "GET /integrations/source/:source_id/platform/:platform/destinations": compatibleDestinationsResponseSchema,
  "GET /connectors/lookback-options": lookbackOptionsResponseSchema,
  "GET /connectors/list": z.array(connectorSchema),
  "GET /connectors/list-by-id/:id": connectorDetailsSchema,
  "POST /connectors/create": connectorSavedSchema,
  "PUT /connectors/update/:id": connectorSavedSchema,
  "DELETE /connectors/delete/:id": messageSchema,
  "POST /connectors/:id/sync": syncQueuedResponseSchema,
  "POST /connectors/:id/cancel": cancelResponseSchema,
  "POST /connectors/:id/backfill": syncQueuedResponseSchema,
  "POST /connectors/:id/pause": pausedResponseSchema,
  "POST /connectors/:id/resume": pausedResponseSchema,
  "GET /connectors/:id/runs": runsPageSchema(syncRunSchema.extend(runTriggeredByFields)),
  "GET /connectors/:id/runs/:runId": runAnswerSchema(syncRunDetailsSchema.extend(runTriggeredByFields)),
  "POST /connectors/:id/streams": streamSwitchedResponseSchema,
  "POST /connectors/:id/streams/resync": streamResyncedResponseSchema,
  "PUT /connectors/:id/schedule": connectorSavedSchema,
  "POST /connectors/:id/schedule/preview": schedulePreviewSchema,

  // Transforms.
  "GET /transforms/config": transformConfigSchema,
  "GET /transforms/list": z.array(transformSchema),
  "POST /transforms/validate-draft": draftValidResponseSchema,
  "POST /transforms/create": transformCreatedSchema,
  "DELETE /transforms/delete/:id": messageSchema,
  "POST /transforms/:id/run": transformRunQueuedSchema,
  "POST /transforms/:id/cancel": cancelResponseSchema,
  "GET /transforms/:id/runs": runsPageSchema(transformRunSchema.extend(runTriggeredByFields)),
  "GET /transforms/:id/runs/:runId": runAnswerSchema(transformRunDetailsSchema.extend(runTriggeredByFields)),
  "GET /transforms/:id/results": transformResultsSchema,
  "GET /transforms/:id/charts": transformChartsSchema,
  "GET /transforms/:id/runs/charts": transformChartsSchema,
  "GET /connectors/:id/runs/charts": transformChartsSchema,
  "PUT /transforms/:id/schedule": transformSavedSchema,
  "POST /transforms/:id/schedule/preview": schedulePreviewSchema,
  "GET /transforms/:id": transformDetailSchema,

  // Templates.
  "GET /templates/input-constants": inputConstantsSchema,
  "GET /templates/categories": templateCategoriesResponseSchema,
  "GET /templates/categories/:category/templates": templatesResponseSchema,
  "GET /templates/:id/metadata": templateInputsResponseSchema,
  "GET /templates/:id/setup-steps": setupStepsResponseSchema,
  "POST /templates/:id/preview": previewResponseSchema,
  // With ?connector_id=, the destination the wizard uses (null: none); without, no `destination` at all.
  "GET /templates/:id": templateWithDestinationSchema,

  // Alerts.
  "GET /alerts/settings": alertSettingsSchema,
  "PUT /alerts/settings": alertSettingsSavedSchema,
  "POST /alerts/email/confirmation": confirmationSentSchema,
  "POST /alerts/signing-secret/roll": alertSettingsSavedSchema,
  "POST /email-confirmations": emailConfirmedSchema,

  // Runs.
  "GET /runs/version": runsVersionSchema,

  // Keys of the public API.
  "GET /api-keys": apiKeyListSchema,
  "POST /api-keys": createdApiKeySchema,
  "POST /api-keys/:id/revoke": revokedApiKeySchema,

  // Who did what (issue 51).
  "GET /activity": activityPageSchema,
  "GET /activity/record": recordAuthorsSchema,

  // Workspaces, members and invitations.
  "GET /workspaces": workspacesSchema,
  "POST /workspaces": workspaceDoneSchema,
  "POST /workspaces/:id/switch": workspaceDoneSchema,
  "PUT /workspace": workspaceDoneSchema,
  "GET /workspace/members": membersPageSchema,
  "POST /workspace/invitations": invitationDoneSchema,
  "POST /workspace/invitations/:id/resend": invitationDoneSchema,
  "POST /workspace/invitations/:id/revoke": messageOnlySchema,
  "POST /workspace/members/:userId/remove": messageOnlySchema,
  "POST /workspace/leave": messageOnlySchema,
  "POST /invitations/check": invitationOfferSchema,
  "POST /invitations/accept": workspaceDoneSchema,
} as const satisfies Record<string, z.ZodTypeAny>;

/** Routes whose answer is not JSON: an event stream, a CSV file, a run's log as text. */
export const BACKEND_STREAMS = [
  "GET /runs/events",
  "GET /transforms/:id/results/download",
  "GET /transforms/:id/charts/:chart/download",
  "GET /connectors/:id/runs/:runId/log",
  "GET /transforms/:id/runs/:runId/log",
] as const;

export type BackendRoute = keyof typeof BACKEND_RESPONSES;
export type BackendStream = (typeof BACKEND_STREAMS)[number];
/** What a route answers, once its schema has read it. */
export type BackendAnswer<K extends BackendRoute> = z.output<(typeof BACKEND_RESPONSES)[K]>;
