import { createContext, useContext } from "react";

/**
 * This response's Content-Security-Policy nonce (scripts/web-edge.ts sets the header): the page's inline scripts
 * carry it, or the browser refuses to run them. Given by app/entry.server.tsx; in the browser it is read back from
 * the page (app/entry.client.tsx), where it only keeps the hydrated markup the same as the server's.
 */
export const CspNonceContext = createContext<string | undefined>(undefined);

export function useCspNonce(): string | undefined {
  return useContext(CspNonceContext);
}

declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    cspNonce?: string;
  }
}
