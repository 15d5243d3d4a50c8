import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

/**
 * TRIBUTARY_SECRET_KEY from the environment, or, for the embedded default, a
 * key generated once into <dataDir>/secret.key (mode 600) and reused after.
 */
export function resolveSecretKey(dataDir: string, env = process.env): string {
  if (env.TRIBUTARY_SECRET_KEY) return env.TRIBUTARY_SECRET_KEY;
  if (env.NODE_ENV === "production") {
    throw new Error("TRIBUTARY_SECRET_KEY must be set in production (32 or more random characters).");
  }
  const file = path.join(dataDir, "secret.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString("base64url");
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
