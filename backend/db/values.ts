/** Small conversions every owner-scoped query module needs. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else is a record that does not exist (a 404, never a database error). */
export const isUuid = (id: string | null | undefined): id is string => !!id && UUID.test(id);

/** A timestamp as the API sends it: ISO 8601 in UTC, or null. */
export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
