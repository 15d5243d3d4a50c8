import { z } from "zod";
import { checkSubForm, createDestinationSchema, DESTINATION_MESSAGES as M, destinationFieldsSchema } from "@contract/destinations";
import { destinationManifest, destinationSetup } from "~/integrations";
import type { FormValues } from "./fields";

/**
 * The form's rules, one per button (spec §5): the contract's, whose per-type rules come from the chosen
 * destination's manifest, so a new plug-in brings its rules with it.
 */

/** Maps the form's `type` field to the contract's integration_name. */
const withIntegration = (value: unknown) =>
  value && typeof value === "object" ? { ...(value as Record<string, unknown>), integration_name: (value as Record<string, unknown>).type } : value;

/** A test also needs the secrets (a save takes them from the test instead). */
function needSecrets(v: Record<string, unknown>, ctx: z.RefinementCtx) {
  const manifest = destinationManifest(typeof v.integration_name === "string" ? v.integration_name : undefined);
  for (const field of manifest?.fields ?? []) {
    if (manifest?.secretFields.includes(field.name) && !v[field.name]) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field.name], message: `${field.label} is required` });
  }
}

/** Settings are checked on edit only where an update may change them. */
const editable = (v: { integration_name?: string }) => !!destinationSetup(v.integration_name).editable;

export const createFormSchema = z.preprocess(withIntegration, createDestinationSchema);
export const testFormSchema = z.preprocess(
  withIntegration,
  destinationFieldsSchema.superRefine((v, ctx) => {
    if (!v.integration_name) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["type"], message: M.integration });
    checkSubForm(v, ctx, "test");
    needSecrets(v, ctx);
  }),
);
export const instructionsFormSchema = z.preprocess(withIntegration, destinationFieldsSchema);
export const editFormSchema = z.preprocess(
  withIntegration,
  destinationFieldsSchema.superRefine((v, ctx) => {
    if (!v.name) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["name"], message: M.name });
    if (editable(v)) checkSubForm(v, ctx, "create");
  }),
);
export const editTestFormSchema = z.preprocess(
  withIntegration,
  destinationFieldsSchema.superRefine((v, ctx) => {
    if (editable(v)) checkSubForm(v, ctx, "test");
  }),
);

export function schemaFor(mode: "create" | "edit", intent: string | null) {
  if (intent === "test") return mode === "create" ? testFormSchema : editTestFormSchema;
  if (intent === "instructions") return instructionsFormSchema;
  return mode === "create" ? createFormSchema : editFormSchema;
}

/** A destination's own settings, secrets left out (an edit compares these with the stored ones). */
export function settingFields(integration: string | null | undefined): string[] {
  const manifest = destinationManifest(integration);
  return (manifest?.fields ?? []).map((f) => f.name).filter((n) => !manifest?.secretFields.includes(n));
}

/** The fields a test covers (its manifest's and the setup's extras): changing any of them resets the test. */
export function testedFields(integration: string | null | undefined): string[] {
  const manifest = destinationManifest(integration);
  if (!manifest) return [];
  return [...new Set([...manifest.fields.map((f) => f.name), ...(destinationSetup(integration).extraFields ?? [])])];
}

/**
 * The tested values, secrets excluded: without JavaScript a password is not sent back to the browser, so the
 * page cannot compare it; with JavaScript an edit of it resets the test separately (and the server compares it
 * with the sealed one).
 */
export function fingerprint(integration: string | null | undefined, values: FormValues): string {
  const secrets = destinationManifest(integration)?.secretFields ?? [];
  const fields = testedFields(integration).filter((f) => !secrets.includes(f));
  return JSON.stringify(fields.map((f) => (values[f] ?? "").trim().toLowerCase()));
}

/** The last connection test, as the action reported it. */
export interface TestState {
  ok: boolean;
  message: string;
  token?: string;
  credentialId?: string;
  /** fingerprint() of the values that were tested. */
  fingerprint: string;
}
