import { z } from "zod";

export const sourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  integration_id: z.string(),
  integration_name: z.string(),
  integration_label: z.string(),
  credentialId: z.string().nullable(),
  status: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  connector_count: z.number().int(),
  required_integration_categories: z.array(z.string()),
  source_metadata: z.record(z.unknown()),
});
export type Source = z.infer<typeof sourceSchema>;
