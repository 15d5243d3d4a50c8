import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { destinationPlugin } from "./registry.js";

/**
 * A successful connection test answers with a token signed (HMAC-SHA256, key
 * derived from TRIBUTARY_SECRET_KEY) over exactly the values it tested, the
 * user, the integration and the credential. Create and update recompute it
 * from what they receive: values that were not the tested ones are refused,
 * with or without JavaScript in the browser.
 */
const VALID_FOR_MS = 24 * 60 * 60 * 1000;

type Bound = Record<string, string>;

/** The values a test proves: its plug-in's boundValues (none for a type without a plug-in). */
export function boundValues(integration: string, v: Record<string, unknown>): Bound {
  return destinationPlugin(integration)?.boundValues(v) ?? {};
}

interface Claims {
  o: string;
  i: string;
  c: string;
  v: Bound;
  e: number;
}

export class ValidationTokens {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(hkdfSync("sha256", secretKey, "tributary", "destination-test-v1", 32));
  }

  private mac(body: string): Buffer {
    return createHmac("sha256", this.key).update(body).digest();
  }

  sign(ownerId: string, integration: string, credentialId: string, values: Bound, now = Date.now()): string {
    const claims: Claims = { o: ownerId, i: integration, c: credentialId, v: values, e: now + VALID_FOR_MS };
    const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
    return `${body}.${this.mac(body).toString("base64url")}`;
  }

  /** True only for an unexpired token of this user over these exact values and credential. */
  verify(token: string | undefined, ownerId: string, integration: string, credentialId: string | undefined, values: Bound, now = Date.now()): boolean {
    if (!token || !credentialId) return false;
    const [body, signature, extra] = token.split(".");
    if (!body || !signature || extra !== undefined) return false;
    const expected = this.mac(body);
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    let claims: Claims;
    try {
      claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Claims;
    } catch {
      return false;
    }
    if (claims.o !== ownerId || claims.i !== integration || claims.c !== credentialId || !(claims.e > now)) return false;
    const keys = new Set([...Object.keys(values), ...Object.keys(claims.v ?? {})]);
    for (const key of keys) if ((claims.v?.[key] ?? "") !== (values[key] ?? "")) return false;
    return true;
  }
}
