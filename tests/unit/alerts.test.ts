import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkWebhookUrl, newSigningSecret, signatureHeader, WebhookRefused } from "../../backend/alerts/webhook.js";
import { composeAlert } from "../../backend/alerts/notifier.js";
import { verifySignature } from "../fakes/webhook-receiver.js";

const lookupTo = (address: string) => async () => [{ address, family: address.includes(":") ? 6 : 4 }];

describe("webhook signatures", () => {
  it("t=<unix>,v1=<hex HMAC-SHA256 of '<t>.<body>'> keyed with the whole secret", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    const body = JSON.stringify({ type: "sync.failed" });
    const at = new Date("2026-11-26T01:02:03Z");
    const t = Math.floor(at.getTime() / 1000);
    expect(signatureHeader(secret, body, at)).toBe(`t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`);
    const now = signatureHeader(secret, body);
    expect(verifySignature(now, body, secret)).toBe(true);
    expect(verifySignature(now, `${body} `, secret)).toBe(false);
    // An old signature is refused by a receiver that checks the time.
    expect(verifySignature(signatureHeader(secret, body, new Date(Date.now() - 3_600_000)), body, secret)).toBe(false);
  });
});

describe("webhook URL rule", () => {
  const production = {};
  const tests = { TRIBUTARY_ALLOW_PRIVATE_HOSTS: "true" };
  it("https to a public address only, in production", async () => {
    await expect(checkWebhookUrl("https://hooks.example.com/x", { env: production, lookup: lookupTo("93.184.216.34") })).resolves.toMatchObject({ checked: { address: "93.184.216.34" } });
    await expect(checkWebhookUrl("http://hooks.example.com/x", { env: production, lookup: lookupTo("93.184.216.34") })).rejects.toThrow("The webhook URL must start with https://");
    for (const address of ["10.0.0.5", "192.168.1.1", "127.0.0.1", "169.254.169.254", "fd00::1", "::ffff:10.0.0.1"]) {
      const refused = checkWebhookUrl("https://rebind.example.com/x", { env: production, lookup: lookupTo(address) });
      await expect(refused).rejects.toBeInstanceOf(WebhookRefused);
    }
    await expect(checkWebhookUrl("https://rebind.example.com/x", { env: production, lookup: lookupTo("10.0.0.5") })).rejects.toThrow(
      "The webhook URL cannot be used: rebind.example.com is not a public address: Tributary connects only to hosts on the public internet.",
    );
  });
  it("with TRIBUTARY_ALLOW_PRIVATE_HOSTS: loopback and private hosts, plain http to those only; metadata never", async () => {
    await expect(checkWebhookUrl("http://127.0.0.1:8080/x", { env: tests })).resolves.toMatchObject({ checked: { address: "127.0.0.1" } });
    await expect(checkWebhookUrl("http://hooks.example.com/x", { env: tests, lookup: lookupTo("93.184.216.34") })).rejects.toThrow("The webhook URL must start with https://");
    await expect(checkWebhookUrl("https://169.254.169.254/latest", { env: tests })).rejects.toBeInstanceOf(WebhookRefused);
  });
});

describe("what an alert says", () => {
  const base = { kind: "sync" as const, subject: { name: "Calls", ownerId: "u", paused: false }, warnAfter: 3, paused: false, url: "https://app.example.com/connectors/details/c1" };
  const failed = { kind: "sync", key: "c1", runId: "r1", status: "failed" as const, error: "The source answered 500" };
  it("failed, warning at N, paused at M, recovered, and nothing after a success", () => {
    expect(composeAlert({ ...base, outcome: failed, failures: 1 })).toMatchObject({ event: "sync.failed", subject: 'Failed: the sync of the connector "Calls"' });
    expect(composeAlert({ ...base, outcome: failed, failures: 3 })).toMatchObject({ event: "sync.warning", subject: 'Warning: the connector "Calls" failed 3 times in a row' });
    expect(composeAlert({ ...base, outcome: failed, failures: 4 })!.text).toContain("(4 failures in a row)");
    const paused = composeAlert({ ...base, outcome: failed, failures: 10, paused: true })!;
    expect(paused).toMatchObject({ event: "connector.paused", data: { paused: true, failures_in_a_row: 10 } });
    expect(paused.text).toBe(
      'The sync of the connector "Calls" failed 10 times in a row, so Tributary paused its schedule.\nFix the cause, then resume the connector on its page.\n\nError: The source answered 500\n\nDetails: https://app.example.com/connectors/details/c1\n',
    );
    const ok = { ...failed, status: "succeeded" as const, error: null };
    expect(composeAlert({ ...base, outcome: ok, failures: 2 })).toMatchObject({ event: "sync.recovered", subject: 'Recovered: the connector "Calls" ran successfully' });
    expect(composeAlert({ ...base, outcome: ok, failures: 0 })).toBeNull();
  });
});
