import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { CspNonceContext } from "~/services/csp-nonce";

/**
 * Remix's default browser entry, except that hydration starts only once the page's loader data is decoded.
 *
 * With single fetch, the server sends the loader data as a stream inside the page, and `RemixBrowser` suspends its
 * first render until the stream is decoded. React 18 mishandles a click (any discrete event) that lands in that gap:
 * it hydrates the suspended root synchronously, the render unwinds without completing, and React throws error #345
 * ("Root did not complete") as an uncaught page error. A user who clicks while a page loads on a slow device hits it.
 *
 * Called before React renders it, `RemixBrowser` starts the decoding and throws the promise it waits on (the
 * Suspense protocol); awaiting that promise first means the render that hydrates never suspends, and React hydrates a
 * clicked, non-suspended tree synchronously as it is meant to. Until hydration the page is its server HTML: its
 * links and forms work as they do with JavaScript off.
 */
async function loaderDataDecoded(): Promise<void> {
  // Only while the stream is there to decode: once it is taken, `RemixBrowser` would go on to build its router.
  if (!window.__remixContext?.stream) return;
  try {
    RemixBrowser({});
  } catch (thrown) {
    if (thrown instanceof Promise) await thrown;
  }
}

/** The page's nonce, as the server rendered it: the browser hides the attribute but keeps the property. */
const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;

void loaderDataDecoded().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <CspNonceContext.Provider value={nonce}>
          <RemixBrowser />
        </CspNonceContext.Provider>
      </StrictMode>,
    );
  }),
);
