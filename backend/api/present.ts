import type { SourceRecord } from "../db/sources.js";
import type { DestinationRecord } from "../db/destinations.js";
import { iso } from "../present/values.js";
import type { ApiDestination, ApiSource } from "./schemas.js";

/** A source as /api/v1 answers it (backend/api/schemas.ts): named fields only, so never its owner or a secret. */
export function presentApiSource(s: SourceRecord): ApiSource {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    integration: s.integrationName as ApiSource["integration"],
    integration_label: s.integrationLabel,
    credential_id: s.credentialId,
    status: s.status,
    settings: s.metadata,
    connector_count: s.connectorCount,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}

/** A destination as /api/v1 answers it: its settings hold no secret (those are sealed in its credential). */
export function presentApiDestination(d: DestinationRecord): ApiDestination {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    integration: d.integrationName,
    integration_label: d.integrationLabel,
    category: d.category as ApiDestination["category"],
    status: d.status,
    settings: d.config,
    credential_id: d.credentialId,
    connector_count: d.connectorCount,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
}
