import { z } from "zod";

export const transformSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  transform_type: z.string(),
  connector_id: z.string(),
  /** Beyond the spec: the connector's name for the list's Connectors column. */
  connector_name: z.string().nullable(),
  status: z.string(),
  created_at: z.string(),
});
export type Transform = z.infer<typeof transformSchema>;
