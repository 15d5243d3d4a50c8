import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { CspNonceContext } from "~/services/csp-nonce";

const ABORT_DELAY = 5_000;

/**
 * Every document is rendered whole, then sent as one body. No page defers data
 * (no `defer`/`<Await>`), so streaming the shell first gains nothing, while
 * piping React's chunks through a Node stream, a web ReadableStream and back
 * cost the list pages about a tenth of their render CPU
 * (docs/decisions/2026-11-22-page-performance.md). This is what Remix's default
 * entry does for bots, for every request.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The web server's Content-Security-Policy allows inline scripts with this nonce only (scripts/web-edge.ts).
  const nonce = loadContext.cspNonce;
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    // eslint-disable-next-line prefer-const -- assigned after the stream that reads it is made
    let timer: ReturnType<typeof setTimeout> | undefined;
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        callback();
      },
      final(callback) {
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        clearTimeout(timer);
        resolve(new Response(Buffer.concat(chunks), { status, headers: responseHeaders }));
        callback();
      },
    });
    const app = (
      <CspNonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </CspNonceContext.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      onAllReady() {
        pipe(sink);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        console.error(error);
      },
    });
    timer = setTimeout(abort, ABORT_DELAY);
  });
}
