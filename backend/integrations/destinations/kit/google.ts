import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { Storage } from "@google-cloud/storage";
import { BigQuery, type BigQueryOptions } from "@google-cloud/bigquery";
import { OAuth2Client } from "google-auth-library";
import { AccessCheckError } from "./access-check.js";
import { connectionTestTimeoutMs, describeMs, isTimeoutError, providerTimeoutMs, withDeadline } from "../../../lib/outbound.js";

/**
 * The platform's Google service account, read from the environment at request
 * time: GOOGLE_SERVICE_ACCOUNT_KEY (the JSON key itself) or
 * GOOGLE_SERVICE_ACCOUNT_KEY_FILE (a path to it). Users grant this account
 * access to their bucket or dataset; Tributary never asks for their keys.
 *
 * GCS_API_ENDPOINT / BIGQUERY_API_ENDPOINT point the official SDKs elsewhere
 * (an emulator or tests/fakes/). Like the SDKs' own emulator support, an
 * overridden endpoint gets no Google credential: Storage skips auth for custom
 * endpoints, and BigQuery is given a fixed placeholder bearer token.
 */
export interface PlatformServiceAccount {
  client_email: string;
  private_key: string;
  project_id?: string;
}

export const SERVICE_ACCOUNT_NOT_CONFIGURED =
  "Google Cloud destinations are not set up on this server: set GOOGLE_SERVICE_ACCOUNT_KEY (the platform service account's JSON key) or GOOGLE_SERVICE_ACCOUNT_KEY_FILE (a path to that key file), then restart the backend.";

export class ServiceAccountError extends Error {}

export function platformServiceAccount(env: NodeJS.ProcessEnv = process.env): PlatformServiceAccount {
  let raw = env.GOOGLE_SERVICE_ACCOUNT_KEY?.trim();
  const file = env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE?.trim();
  if (!raw && file) {
    try {
      raw = readFileSync(file, "utf8");
    } catch {
      throw new ServiceAccountError(`The service account key file named by GOOGLE_SERVICE_ACCOUNT_KEY_FILE (${file}) cannot be read.`);
    }
  }
  if (!raw) throw new ServiceAccountError(SERVICE_ACCOUNT_NOT_CONFIGURED);
  let key: Partial<PlatformServiceAccount>;
  try {
    key = JSON.parse(raw) as Partial<PlatformServiceAccount>;
  } catch {
    throw new ServiceAccountError("The platform service account key (GOOGLE_SERVICE_ACCOUNT_KEY or GOOGLE_SERVICE_ACCOUNT_KEY_FILE) is not valid JSON.");
  }
  if (typeof key.client_email !== "string" || typeof key.private_key !== "string") {
    throw new ServiceAccountError("The platform service account key (GOOGLE_SERVICE_ACCOUNT_KEY or GOOGLE_SERVICE_ACCOUNT_KEY_FILE) has no client_email or private_key.");
  }
  return { client_email: key.client_email, private_key: key.private_key, project_id: key.project_id };
}

const endpoint = (name: "GCS_API_ENDPOINT" | "BIGQUERY_API_ENDPOINT") => process.env[name]?.trim().replace(/\/+$/, "") || undefined;

/** `timeoutMs` bounds each HTTP request the SDK sends (its `timeout`); a sync's requests get PROVIDER_TIMEOUT_SECONDS. */
export function storageClient(account: PlatformServiceAccount, projectId: string, timeoutMs = providerTimeoutMs()): Storage {
  const apiEndpoint = endpoint("GCS_API_ENDPOINT");
  return new Storage({
    projectId,
    credentials: { client_email: account.client_email, private_key: account.private_key },
    ...(apiEndpoint ? { apiEndpoint } : {}),
    retryOptions: { autoRetry: false },
    timeout: timeoutMs,
  });
}

/** BigQuery hands its options to @google-cloud/common's Service, which applies `timeout` to every request; its type omits it. */
const withTimeout = (options: BigQueryOptions, timeoutMs: number): BigQueryOptions => ({ ...options, timeout: timeoutMs }) as BigQueryOptions;

export function bigQueryClient(account: PlatformServiceAccount, projectId: string, timeoutMs = providerTimeoutMs()): BigQuery {
  const apiEndpoint = endpoint("BIGQUERY_API_ENDPOINT");
  if (apiEndpoint) {
    const placeholder = new OAuth2Client();
    placeholder.setCredentials({ access_token: "endpoint-override", expiry_date: Date.now() + 365 * 24 * 3600 * 1000 });
    return new BigQuery(withTimeout({ projectId, apiEndpoint, authClient: placeholder, autoRetry: false }, timeoutMs));
  }
  return new BigQuery(withTimeout({ projectId, credentials: { client_email: account.client_email, private_key: account.private_key }, autoRetry: false }, timeoutMs));
}

function statusOf(error: unknown): number | undefined {
  const e = error as { code?: unknown; response?: { status?: unknown } };
  if (typeof e.code === "number") return e.code;
  if (typeof e.response?.status === "number") return e.response.status;
  return undefined;
}

function unreachable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (typeof code === "string" && /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EAI_AGAIN|EPIPE/.test(code)) || /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EPIPE|ECONNRESET/.test(String((error as Error).message));
}

function describe(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  return message.split("\n")[0]!.slice(0, 300);
}

/**
 * One deadline for a whole connection test (its requests share it). The SDK's own request timeout usually
 * fires first (an aborted request); either way the user hears that the service did not answer in time.
 */
function testDeadline(service: string, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  return {
    race: <T>(work: Promise<T>) => withDeadline(work, Math.max(1, end - Date.now()), service),
    passed: (error: unknown) => isTimeoutError(error) || Date.now() >= end - 50,
    failure: () => new AccessCheckError(`${service} did not answer within ${describeMs(timeoutMs)}. Please try again later.`, true, true),
  };
}

/** Cloud Storage: write, read back and delete a probe object with the platform's service account. */
export async function checkBucketAccess(account: PlatformServiceAccount, projectId: string, bucketName: string, timeoutMs = connectionTestTimeoutMs()): Promise<void> {
  const storage = storageClient(account, projectId, timeoutMs);
  const file = storage.bucket(bucketName).file(`.tributary/connection-test-${randomUUID()}.txt`);
  const content = `Tributary connection test ${new Date().toISOString()}`;
  const deadline = testDeadline("Google Cloud Storage", timeoutMs);
  const step = async <T>(action: () => Promise<T>, permission: string, doing: string): Promise<T> => {
    try {
      return await deadline.race(action());
    } catch (error) {
      if (deadline.passed(error)) throw deadline.failure();
      if (unreachable(error)) throw new AccessCheckError(`could not reach Google Cloud Storage (${describe(error)})`, true);
      const status = statusOf(error);
      if (status === 404) throw new AccessCheckError(`bucket ${bucketName} was not found (or ${account.client_email} cannot see it)`);
      if (status === 401 || status === 403) {
        throw new AccessCheckError(`${account.client_email} cannot ${doing} in bucket ${bucketName}: it needs ${permission} (grant it Storage Object Admin on the bucket)`);
      }
      throw new AccessCheckError(`could not ${doing} in bucket ${bucketName} (${describe(error)})`);
    }
  };
  await step(() => file.save(content, { resumable: false, contentType: "text/plain" }), "storage.objects.create", "create objects");
  const [read] = await step(() => file.download(), "storage.objects.get", "read objects");
  if (read.toString("utf8") !== content) throw new AccessCheckError(`the probe object read back from bucket ${bucketName} differs from what was written`);
  await step(() => file.delete(), "storage.objects.delete", "delete objects");
}

/** BigQuery: get the dataset (when one is named) and dry-run a query in the project. */
export async function checkDatasetAccess(account: PlatformServiceAccount, projectId: string, datasetName: string | undefined, timeoutMs = connectionTestTimeoutMs()): Promise<void> {
  const bigquery = bigQueryClient(account, projectId, timeoutMs);
  const deadline = testDeadline("BigQuery", timeoutMs);
  if (datasetName) {
    try {
      await deadline.race(bigquery.dataset(datasetName).get());
    } catch (error) {
      if (deadline.passed(error)) throw deadline.failure();
      if (unreachable(error)) throw new AccessCheckError(`could not reach BigQuery (${describe(error)})`, true);
      const status = statusOf(error);
      if (status === 404) throw new AccessCheckError(`dataset ${datasetName} was not found in project ${projectId}`);
      if (status === 401 || status === 403) {
        throw new AccessCheckError(`${account.client_email} cannot read dataset ${projectId}.${datasetName}: it needs bigquery.datasets.get (grant it BigQuery Data Editor on the dataset)`);
      }
      throw new AccessCheckError(`could not read dataset ${projectId}.${datasetName} (${describe(error)})`);
    }
  }
  const query = datasetName ? `SELECT table_name FROM \`${projectId}.${datasetName}.INFORMATION_SCHEMA.TABLES\` LIMIT 1` : "SELECT 1";
  try {
    await deadline.race(bigquery.createQueryJob({ query, dryRun: true, useLegacySql: false }));
  } catch (error) {
    if (deadline.passed(error)) throw deadline.failure();
    if (unreachable(error)) throw new AccessCheckError(`could not reach BigQuery (${describe(error)})`, true);
    const status = statusOf(error);
    if (status === 401 || status === 403) {
      throw new AccessCheckError(`${account.client_email} cannot run queries in project ${projectId}: it needs bigquery.jobs.create (grant it BigQuery Job User on the project)`);
    }
    throw new AccessCheckError(`a dry-run query in project ${projectId} failed (${describe(error)})`);
  }
}
