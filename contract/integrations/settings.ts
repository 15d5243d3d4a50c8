import { z } from "zod";
import type { DestinationManifest } from "./types.js";

/** What destination manifests share: their required-field rules and the helpers their settings schemas use. */

/** When required-field rules run: creating a destination, or testing its connection (some messages differ). */
export type SettingsCheckMoment = "create" | "test";

/**
 * A manifest with its own required-field rules (the spec's messages differ between create and test). A manifest
 * without them has its `settings` schema checked as is, its required fields reported by that schema's messages.
 */
export interface DestinationContract extends DestinationManifest {
  /** Another name the spec's API gives it (Cloud Storage: "gcs", an /externalauth path and a transform wizard key). */
  apiAlias?: string;
  checkSettings?(values: Record<string, unknown>, ctx: z.RefinementCtx, when: SettingsCheckMoment): void;
}

/** Optional form/JSON string fields: "" and missing are the same. */
export function optionalField<T extends z.ZodTypeAny>(schema: T) {
  return z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());
}

/** Adds `message` at `path` when the value is missing. */
export function requireField(ctx: z.RefinementCtx, value: unknown, path: string, message: string): void {
  if (value === undefined || value === null || value === "") ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
}
