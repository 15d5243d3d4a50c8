import { z } from "zod";

export const FREQUENCIES = ["daily", "hourly"] as const;

export const connectorSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source_id: z.string(),
  /** Beyond the spec: the names the list shows, so it needs no second call. */
  source_name: z.string().nullable(),
  destination_ids: z.array(z.string()),
  destinations: z.array(z.object({ id: z.string(), name: z.string() })),
  frequency: z.string(),
  lookback_days: z.number().int(),
  last_synced_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
});
export type Connector = z.infer<typeof connectorSchema>;
