import { createHash } from "node:crypto";

/**
 * A provider id usable as a file name and a row key: base64 ids (Zoom meeting
 * UUIDs, Graph ids) become their base64url form (same bytes, no "/" or "+"),
 * other ids with unsafe characters a digest of themselves.
 */
export function safeId(raw: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(raw)) return raw;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) return raw.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return createHash("sha256").update(raw).digest("base64url").slice(0, 32);
}
