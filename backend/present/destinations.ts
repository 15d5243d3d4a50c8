import type { DestinationRecord, DestinationRow } from "../db/destinations.js";
import type { Destination } from "../../contract/destinations.js";
import { iso } from "./values.js";

/** A destination as the API answers it (GET /destinations/list rows, /api/v1/destinations): its config holds no secret (those are sealed in its credential). */
export function presentDestination(d: DestinationRecord): Destination {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    category: d.category,
    integration_name: d.integrationName,
    integration_label: d.integrationLabel,
    status: d.status,
    config: d.config,
    credential_id: d.credentialId,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
    connector_count: d.connectorCount,
  };
}

/** The warehouse destination the transform wizard names (GET /templates/{id}?connector_id=). */
export function presentWizardDestination(d: DestinationRow) {
  return { id: d.id, name: d.name, integration_name: d.integrationName, integration_label: d.integrationLabel, category: d.category, config: d.config };
}
