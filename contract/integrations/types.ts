import type { z } from "zod";
import type { StreamManifest } from "./streams.js";
import type { SetupCallDeclaration } from "./setup-calls.js";

/**
 * What the app and the backend both know about an integration plug-in: its manifest. The backend's plug-in
 * (backend/integrations/{sources,destinations}/<name>/) adds how it authenticates, reads or writes; the app
 * draws its forms from the manifest (and from app/integrations/<name>.tsx when the fields are not enough).
 */

export type DestinationCategory = "WAREHOUSE" | "STORAGE";

/** One field of a plug-in's sub-form, drawn by the app's generic form (a plug-in needing more has app/integrations/<name>.tsx). */
export interface SettingField {
  /** The key in `settings` (and the form field's name). */
  name: string;
  label: string;
  input: "text" | "password" | "number";
  placeholder?: string;
  /** One sentence under the field. */
  help?: string;
  /** Sent to the browser as the field's initial value on a new form. */
  defaultValue?: string;
}

export interface DestinationManifest {
  kind: "destination";
  /** The integration_name stored on a destination ("postgres"). */
  name: string;
  /** Shown in the type select and the lists ("PostgreSQL"). */
  label: string;
  /** Spec §9: WAREHOUSE (tables) or STORAGE (files). */
  category: DestinationCategory;
  /** The settings of its sub-form and of POST /destinations/create beyond name and description. */
  settings: z.AnyZodObject;
  /** The sub-form's fields, in order (empty when the plug-in has its own setup component). */
  fields: readonly SettingField[];
  /** Settings stored encrypted and never sent back (e.g. ["password"]). */
  secretFields: readonly string[];
  /** A create must carry the token of a successful connection test over the same values. */
  needsConnectionTest: boolean;
  /** Transforms can read a connector's synced rows here and write their results here. */
  warehouse: boolean;
  /** What a sync writes there: transcript/e-mail files as objects, records as table rows. */
  accepts: { objects: boolean; rows: boolean };
}

export interface SourceManifest {
  kind: "source";
  /** The integration_name stored on a source ("zoom"). */
  name: string;
  label: string;
  /** The settings (source_metadata) of its sub-form and of POST /sources/create. */
  settings: z.AnyZodObject;
  /** A create needs a successful verification of the very setup it names (Teams verify-setup, Gmail test). */
  needsVerification: boolean;
  /** The platforms its records come from (a data generator may produce several). */
  platforms: readonly string[];
  /** What its syncs move: each stream's table, key, columns, cursor and files (contract/integrations/streams.ts). */
  streams: readonly StreamManifest[];
  /** Its /externalauth/<name>/<call> calls, by call: method, body and answer (contract/integrations/setup-calls.ts). */
  setupCalls: Readonly<Record<string, SetupCallDeclaration>>;
  /** The settings a source's details page shows, in order, with their labels. */
  settingLabels: Readonly<Record<string, string>>;
  /** It makes its records up (the data generator): no provider's name to list beside the others. */
  synthetic?: boolean;
  /** Several ways to authenticate, one chosen before authenticating (Gmail's service account or one mailbox). */
  authModes?: SourceAuthModesDeclaration;
}

export interface SourceAuthModesDeclaration {
  /** The setting, form field and query parameter that carry the chosen mode. */
  field: string;
  /** The modes a create accepts, in the select's order. */
  modes: readonly { mode: string; label: string }[];
  /** The mode a page without a choice starts with. */
  defaultMode: string;
  /** The message when no (valid) mode is chosen. */
  required: string;
}

export type IntegrationManifest = DestinationManifest | SourceManifest;
