import type { Outcome } from "~/services/backend.server";
import type { SourceAuthModesDeclaration } from "@contract/integrations/types";
import type { SetupLists } from "./source-setup";

/**
 * What the create page's loader and action know about a source beyond its manifest (contract/integrations/<name>.ts)
 * and its form part (app/integrations/sources/<name>/setup.tsx): how it authenticates, what it loads for the setup
 * step, how it verifies. One per source, the default export of app/integrations/sources/<name>/setup.server.ts, found
 * by app/integrations/sources.server.ts. Server-only: the members call the backend.
 */
export interface SourceSetupServer<L extends object = SetupLists> {
  /** A source with several ways to authenticate (Gmail): the user picks one before authenticating. */
  authModes?: SourceAuthModes;
  /** How "Authenticate" runs with this mode (null when the source has no modes). */
  authFlow(mode: string | null): AuthFlow;
  /** The mode a return from the provider's sign-in (code or admin consent) authenticated, when it has modes. */
  redirectMode?: string;
  /** The choice lists (and steps) of the setup step, once authenticated; their failures are shown as errors. */
  loadLists?(request: Request, credentialId: string, setup: Record<string, string>): Promise<{ lists: L; errors: string[] }>;
  /** The setup fields a verification covers: editing one resets it (spec §4). */
  verifiedFields?: readonly string[];
  /** Its verification; without one, the generic POST /externalauth/<name>/verify-setup over the whole organization. */
  verify?(request: Request, credentialId: string, setup: Record<string, string>, mode: string | null): Promise<Outcome<VerifyAnswer>>;
  /** A create refused although its metadata is valid (a team already connected): the message, at the field it is about. */
  refuseCreate?(metadata: Record<string, unknown> | null, lists: L): { field: string; message: string } | null;
}

export interface AuthOption {
  mode: string;
  label: string;
}

/** The manifest's authentication modes (contract/integrations/types.ts), and how the select loads its options. */
export interface SourceAuthModes extends SourceAuthModesDeclaration {
  /** The modes the select offers, from the backend (with the message to show when they could not be loaded). */
  options(request: Request): Promise<{ options: AuthOption[]; error: string | null }>;
}

/** Authenticate either sends the browser to the provider (OAuth, admin consent) or posts the callback at once. */
export type AuthFlow = { redirect: true } | { redirect: false; body: Record<string, string>; failure?: string };

/** A verification's outcome, whichever call made it. */
export interface VerifyAnswer {
  success: boolean;
  message: string;
}
