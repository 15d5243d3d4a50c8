import { data } from "@remix-run/node";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Record ids are UUIDs: anything else names no record, so it is answered as one that does not exist. */
export const isRecordId = (id: string | undefined): id is string => !!id && UUID.test(id);

/**
 * A details or edit page's data with the status the page deserves: 404 when the record does not exist or is
 * someone else's (the page still shows its on-page message), else 200.
 */
export function pageData<T>(body: T, notFound: boolean) {
  return data(body, notFound ? { status: 404 } : undefined);
}
