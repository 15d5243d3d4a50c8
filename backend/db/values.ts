/** Small conversions every owner-scoped query module needs. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else is a record that does not exist (a 404, never a database error). */
export const isUuid = (id: string | null | undefined): id is string => !!id && UUID.test(id);
