import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { noteSecrets } from "./redact.js";

/**
 * Secrets at rest: AES-256-GCM with a key derived (HKDF-SHA256) from
 * TRIBUTARY_SECRET_KEY. Format: v1.<iv>.<tag>.<ciphertext>, base64url parts.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(hkdfSync("sha256", secretKey, "tributary", "secrets-at-rest-v1", 32));
  }

  seal(value: unknown): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
  }

  open<T = unknown>(sealed: string): T {
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("Unreadable sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    const text = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    const value = JSON.parse(text) as T;
    // A provider's error may quote what was opened here: it is taken out of texts stored, logged or sent (redact.ts).
    noteSecrets(value);
    return value;
  }
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}
