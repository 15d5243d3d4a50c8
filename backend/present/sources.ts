import type { SourceRecord } from "../db/sources.js";
import type { Source } from "../../contract/sources.js";
import { iso } from "./values.js";

/** A source as the API answers it (GET /sources/list rows, /api/v1/sources): named fields only, so never its owner or a secret. */
export function presentSource(s: SourceRecord): Source {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    type: s.integrationName,
    integration_id: s.integrationName,
    integration_name: s.integrationName,
    integration_label: s.integrationLabel,
    credentialId: s.credentialId,
    status: s.status,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    connector_count: s.connectorCount,
    required_integration_categories: s.requiredIntegrationCategories,
    source_metadata: s.metadata,
  };
}
