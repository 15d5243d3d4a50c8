import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SecretBox } from "../../backend/lib/crypto.js";
import { noteSecrets, redactSecrets, redactValues, withSecretScope } from "../../backend/lib/redact.js";
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

describe("the exact secrets in play", () => {
  const secret = "S3cr/et pa+ss=é\"x";
  const shapes = [
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, "+"),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString("base64"),
    Buffer.from(secret).toString("base64url"),
  ];

  it("are taken out in every encoding, whatever the text around them", () => {
    for (const shape of shapes) {
      const text = `server said: login refused for ${shape}!`;
      expect(redactValues(text, [secret]), shape).toBe("server said: login refused for [redacted]!");
    }
    expect(redactSecrets(`auth failed ${JSON.stringify({ pass: secret })}`, [secret])).toBe('auth failed {"pass":"[redacted]"}');
  });

  it("are those opened in the same scope (SecretBox.open notes them), and only there", async () => {
    const box = new SecretBox(randomBytes(32).toString("base64url"));
    const sealed = box.seal({ password: secret, host: "db.example.com", user: "analyst" });
    const text = `could not sign in to db.example.com as analyst: ${secret}`;
    const inside = await withSecretScope(async () => {
      box.open(sealed);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return redactSecrets(text);
    });
    // Only the secret fields: the host and user stay readable.
    expect(inside).toBe("could not sign in to db.example.com as analyst: [redacted]");
    expect(redactSecrets(text)).toBe(text);
    await withSecretScope(async () => {
      noteSecrets("typed-for-a-test");
      expect(redactValues("echo: typed-for-a-test")).toBe("echo: [redacted]");
    });
  });

  it("include the server's own secrets from its environment; short values are left alone", () => {
    const saved = process.env.ZOOM_CLIENT_SECRET;
    process.env.ZOOM_CLIENT_SECRET = "zoom-client-secret-value";
    try {
      expect(redactValues("invalid_client zoom-client-secret-value")).toBe("invalid_client [redacted]");
    } finally {
      if (saved === undefined) delete process.env.ZOOM_CLIENT_SECRET;
      else process.env.ZOOM_CLIENT_SECRET = saved;
    }
    expect(redactValues("a b c abc", ["abc"])).toBe("a b c abc");
  });
});
