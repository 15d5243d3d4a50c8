import type { ComponentType } from "react";
import type { DestinationManifest } from "@contract/integrations/types";
import type { IntegrationInstructions } from "@contract/destinations";
import type { FieldErrors, FormValues } from "~/components/destination-form/fields";

/** The platform's service account a user grants access to (shown with its credential). */
export interface ServiceAccountView {
  email: string;
  credentialId: string;
}

/** What a plug-in's own setup component is drawn with, in place of the generic sub-form. */
export interface SetupProps {
  manifest: DestinationManifest;
  mode: "create" | "edit";
  defaults: FormValues;
  errors: FieldErrors;
  /** Prefilled and locked (the transform setup embeds the form this way). */
  locked?: boolean;
  serviceAccount: ServiceAccountView | null;
  instructions: IntegrationInstructions | null;
}

/**
 * What the app knows about a destination beyond its manifest. Every member is optional: a plug-in whose
 * manifest fields are enough (PostgreSQL, Snowflake) has no entry at all.
 */
export interface DestinationSetup {
  /** Drawn instead of the generic sub-form (heading, fields, instructions button). */
  Component?: ComponentType<SetupProps>;
  /** The transform setup shows this instead of grant steps: nothing has to be granted. */
  NoGrants?: ComponentType;
  /** Users grant the platform's service account access (POST /externalauth/<name>/service_account). */
  serviceAccount?: boolean;
  /** Settings its grant steps assume until the form says otherwise (BigQuery: write access, for syncs). */
  stepDefaults?: Readonly<Record<string, string>>;
  /** Update may change its settings, after a new test over them (spec §7: project, bucket or dataset). */
  editable?: boolean;
  /** The test button's words, when not "Test Connection". */
  testLabel?: { create: string; edit: string };
  /** Edit: what the test section says before a setting changes. */
  changeHint?: string;
  /** Form fields sent with a test (and covered by it) beyond the manifest's. */
  extraFields?: readonly string[];
  /** Its setup component shows the tested credential itself (no hidden copy). */
  showsCredential?: boolean;
}
