import { z } from "zod";
import { storable } from "../text.js";

/** What the source manifests share: the spec's messages and the optional-text rule (contract/sources.ts re-exports them). */

/** The messages of spec §5 "Source create" / "Source update" and §8 "Source", character for character. */
export const SOURCE_MESSAGES = {
  nameRequired: "Please enter a source name",
  integrationRequired: "Please select an integration type",
  gmailAuthTypeRequired: "Please select a Gmail authentication type",
  integrationBeforeAuth: "Please select an integration type before authenticating",
  mustAuthenticate: "You must authenticate with the selected integration",
  mustVerify: "You must verify the integration setup",
  teamAlreadyConnected: "This team is already connected. Please choose another team.",
  integrationChanged: "Integration changed. You'll need to authenticate with this new integration.",
  createFailed: (text: string) => `Failed to create source: ${text}`,
  updateFailed: (text: string) => `Failed to update source: ${text}`,
  deleteFailed: "Failed to delete source",
  fetchSourcesFailed: "Failed to fetch sources",
  fetchSourceFailed: "Failed to fetch source",
  notFound: "Source not found",
  verificationFailed: "Verification failed. Please fix the setup and try again.",
  datagenAuthFailed: "Datagen authentication failed.",
  gmailAuthOptionsFailed: "Failed to fetch Gmail auth options",
  // Rules the spec states without a quoted message.
  companyTooLong: "Company name must be 100 characters or fewer",
  formatRequired: "Please select a data style (zoom or gong)",
  zoomGroupRequired: "Please select a Zoom group",
  teamRequired: "Please select a team",
  adminEmailRequired: "Workspace admin e-mail is required",
  adminEmailInvalid: "Please enter a valid Workspace admin e-mail",
  gmailGroupRequired: "Please select a Google group",
} as const;

/** Optional text: null and missing are "". */
export const optionalText = (max: number, tooLong: string, label = "Text") =>
  z.preprocess((v) => (v === null || v === undefined ? "" : v), storable(z.string({ invalid_type_error: "must be text" }).trim().max(max, tooLong), label));
