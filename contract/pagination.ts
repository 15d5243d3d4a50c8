import { z } from "zod";

export const DEFAULT_PAGE_SIZE = 50;

/** ?page=&page_size= of every list call. The total is sent in the X-Total-Count header. */
export const pageQuerySchema = z.object({
  page: z.coerce.number({ invalid_type_error: "page must be a number" }).int("page must be a whole number").min(1, "page must be 1 or more").max(1_000_000).default(1),
  page_size: z.coerce.number({ invalid_type_error: "page_size must be a number" }).int().min(1, "page_size must be 1 or more").max(200, "page_size must be 200 or less").default(DEFAULT_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const TOTAL_COUNT_HEADER = "x-total-count";
