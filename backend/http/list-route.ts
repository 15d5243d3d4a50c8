import type { Context } from "hono";
import type { ApiEnv } from "./context.js";
import { parse } from "./context.js";
import { pageQuerySchema, TOTAL_COUNT_HEADER, type PageQuery } from "../../contract/pagination.js";
import type { Database } from "../db/client.js";
import type { Page } from "../db/lists.js";

/** GET …/list: the body is the array the spec names; the total rides in X-Total-Count. */
export function listHandler<T>(query: (db: Database, ownerId: string, page: PageQuery) => Promise<Page<T>>) {
  return async (c: Context<ApiEnv>) => {
    const page = parse(pageQuerySchema, c.req.query());
    const { rows, total } = await query(c.var.services.db, c.var.user.id, page);
    c.header(TOTAL_COUNT_HEADER, String(total));
    return c.json(rows);
  };
}
