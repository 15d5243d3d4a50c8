/** A timestamp as the API sends it: ISO 8601 in UTC, or null. */
export function iso(at: Date): string;
export function iso(at: Date | null): string | null;
export function iso(at: Date | null): string | null {
  return at === null ? null : at.toISOString();
}
