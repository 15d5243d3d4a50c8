import type { Database } from "../db/client.js";
import type { Page } from "../db/lists.js";
import { listQuerySchema, type ListKind, type ListQuery } from "../../contract/lists.js";
import { API_MESSAGES } from "../../contract/api.js";
import { pageQuerySchema } from "../../contract/pagination.js";
import { PublicApiError } from "./errors.js";

/**
 * A list's cursor: which page of which size comes next, opaque to the client (base64url JSON). The lists are the app's
 * own queries (backend/db/lists.ts, newest first, then by id); a cursor keeps the page size it was made with.
 */
interface Cursor {
  page: number;
  size: number;
}

const encode = (cursor: Cursor) => Buffer.from(JSON.stringify([cursor.page, cursor.size])).toString("base64url");

/**
 * The cursor's page and size, held to the limits of the app's list query (contract/pagination.ts): anything else,
 * malformed or out of range (`[1e9, 1]`), is a 400 with a sentence before any query is made.
 */
function decode(text: string): Cursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    // Not ours: refused below.
  }
  if (Array.isArray(value) && value.length === 2 && value.every(Number.isInteger)) {
    const parsed = pageQuerySchema.safeParse({ page: value[0], page_size: value[1] });
    if (parsed.success) return { page: parsed.data.page, size: parsed.data.page_size };
  }
  throw new PublicApiError(400, "invalid_request", API_MESSAGES.badCursor);
}

/** One page of the owner's records of `kind` through the app's list query, in the API's shape (`present`), and the cursor of the next page. */
export async function listPage<R, T>(
  db: Database,
  ownerId: string,
  kind: ListKind,
  query: (db: Database, ownerId: string, query: ListQuery) => Promise<Page<R>>,
  present: (record: R) => T,
  args: { limit: number; cursor?: string | undefined },
): Promise<{ data: T[]; next_cursor: string | null }> {
  const at = args.cursor ? decode(args.cursor) : { page: 1, size: args.limit };
  const page = await query(db, ownerId, listQuerySchema(kind).parse({ page: at.page, page_size: at.size }));
  const more = at.page * at.size < page.total;
  return { data: page.rows.map((row) => present(row)), next_cursor: more ? encode({ page: at.page + 1, size: at.size }) : null };
}

/** A history paged by its last run's id (the runs queries take `before`): one more is read to know whether more follow. */
export async function runsPage<Run extends { id: string }>(
  read: (limit: number, before?: string) => Promise<Run[]>,
  args: { limit: number; cursor?: string | undefined },
): Promise<{ data: Run[]; next_cursor: string | null }> {
  let before: string | undefined;
  if (args.cursor) {
    before = Buffer.from(args.cursor, "base64url").toString("utf8");
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(before)) throw new PublicApiError(400, "invalid_request", API_MESSAGES.badCursor);
  }
  const rows = await read(args.limit + 1, before);
  const data = rows.slice(0, args.limit);
  return { data, next_cursor: rows.length > args.limit ? Buffer.from(data[data.length - 1]!.id).toString("base64url") : null };
}
