import type { Context } from "hono";
import type { ApiEnv } from "./context.js";
import { parse } from "../services/errors.js";
import { TOTAL_COUNT_HEADER } from "../../contract/pagination.js";
import { listQuerySchema, type ListKind, type ListQuery } from "../../contract/lists.js";
import type { Database } from "../db/client.js";
import type { Page } from "../db/lists.js";

/**
 * GET …/list: the body is the array the spec names, each record in the API's shape (`present`); the total rides in
 * X-Total-Count. ?q=&status=&type=&sort= narrow and order it.
 */
export function listHandler<R, T>(kind: ListKind, query: (db: Database, ownerId: string, query: ListQuery) => Promise<Page<R>>, present: (record: R) => T) {
  const schema = listQuerySchema(kind);
  return async (c: Context<ApiEnv>) => {
    const page = parse(schema, c.req.query());
    const { rows, total } = await query(c.var.services.db, c.var.actor.ownerId, page);
    c.header(TOTAL_COUNT_HEADER, String(total));
    return c.json(rows.map((row) => present(row)));
  };
}
