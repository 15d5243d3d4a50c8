import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../backend/lib/redact.js";
import { cleanLine } from "../../backend/db/run-logs.js";

/** A run's log lines and errors never carry an obvious secret (backend/lib/redact.ts). */
describe("redactSecrets", () => {
  it.each([
    ["Authorization: Bearer ya29.a0AfB_abc-DEF~1/2+3=", "Authorization: Bearer [redacted]"],
    ["basic auth Basic dXNlcjpwYXNz refused", "basic auth Basic [redacted] refused"],
    ["GET /v1/users?access_token=abc.def&page=2", "GET /v1/users?access_token=[redacted]&page=2"],
    ["token=abc; other=1", "token=[redacted]; other=1"],
    ["https://x.example/cb?code=1&client_secret=s3cr3t", "https://x.example/cb?code=1&client_secret=[redacted]"],
    ["?key=AIzaSyA-123&alt=json", "?key=[redacted]&alt=json"],
    ['{"refresh_token":"1//0g-abc","expires_in":3599}', '{"refresh_token":"[redacted]","expires_in":3599}'],
    ['{"password": "p\\"w", "user": "ada"}', '{"password": "[redacted]", "user": "ada"}'],
    ['{"api_key": 12345, "private_key_id": "k1"}', '{"api_key": [redacted], "private_key_id": "k1"}'],
    ["postgres://ada:hunter2@db.example.com:5432/app", "postgres://ada:[redacted]@db.example.com:5432/app"],
    ["password: hunter2, user: ada", "password: [redacted], user: ada"],
    ["Failed query: insert into x values ($1)\nparams: sealed,secret", "Failed query: insert into x values ($1)\nparams: [redacted]"],
  ])("%s", (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it("takes out a PEM private key whole, even when it is cut off", () => {
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----";
    expect(redactSecrets(`could not load ${key} at all`)).toBe("could not load [redacted private key] at all");
    expect(redactSecrets("key starts -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg")).toBe("key starts [redacted private key]");
  });

  it("leaves ordinary lines alone", () => {
    for (const line of [
      'Reading Data Generator source "Demo" from 2026-11-23T00:00:00.000Z to 2026-11-26T00:00:00.000Z (3-day lookback).',
      "Batch written: 1,200 records so far (4.5 MB).",
      'Destination "Disk" written: 12 records, 3.1 KB — files in destinations/a/b/files/zoom/c/ (under the data directory).',
      "BigQuery my-project.analytics: tables objects, meetings and transcript_utterances",
      "Result table tx_1234abcd_topics written: 6 rows.",
    ]) {
      expect(redactSecrets(line)).toBe(line);
    }
  });

  it("a stored log line is redacted, on one line, and at most 2,000 characters", () => {
    expect(cleanLine("first\n  second password=x")).toBe("first ⏎ second password=[redacted]");
    const long = cleanLine("x".repeat(5_000));
    expect(long).toHaveLength(2_000);
    expect(long.endsWith("…")).toBe(true);
  });
});
