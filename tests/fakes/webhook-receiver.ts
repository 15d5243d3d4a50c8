import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One webhook request as the receiver got it. */
export interface ReceivedHook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: { id: string; type: string; created_at: string; subject: string; data: Record<string, unknown> & { run: { id: string; status: string; error: string | null }; url: string } };
}

/**
 * Checks a `Tributary-Signature: t=<unix>,v1=<hex>` header as a receiver should: the HMAC-SHA256 of "<t>.<body>"
 * keyed with the signing secret, compared in constant time, and a timestamp no older than `toleranceSeconds`.
 */
export function verifySignature(header: string | undefined, body: string, secret: string, toleranceSeconds = 300): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds || !parts.v1) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A local HTTP server standing in for a user's webhook endpoint: keeps every POST; `failNext(n)` makes the next n
 * answers 503 (to see the retries).
 */
export async function startWebhookReceiver() {
  const hooks: ReceivedHook[] = [];
  let failing = 0;
  let attempts = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      attempts++;
      if (failing > 0) {
        failing--;
        res.writeHead(503).end("busy");
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      hooks.push({ path: req.url ?? "/", headers: req.headers, body, json: JSON.parse(body) as ReceivedHook["json"] });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks/tributary`,
    hooks,
    /** Every request, answered or refused. */
    attempts: () => attempts,
    failNext(n: number) {
      failing = n;
    },
    async waitFor(match: (h: ReceivedHook) => boolean, timeoutMs = 20_000): Promise<ReceivedHook> {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const found = hooks.find(match);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no such webhook arrived; received: ${JSON.stringify(hooks.map((h) => h.json.type))}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
