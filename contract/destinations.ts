import { z } from "zod";

export const destinationConfigSchema = z
  .object({
    project_id: z.string().optional(),
    bucket_name: z.string().optional(),
    dataset_name: z.string().optional(),
    account: z.string().optional(),
    warehouse: z.string().optional(),
    database: z.string().optional(),
    schema: z.string().optional(),
  })
  .passthrough();

export const destinationSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  integration_name: z.string(),
  integration_label: z.string(),
  status: z.string().nullable(),
  config: destinationConfigSchema,
  credential_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  connector_count: z.number().int(),
});
export type Destination = z.infer<typeof destinationSchema>;
