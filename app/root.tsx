import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import styles from "~/styles/app.css?url";
import { Logo } from "~/components/logo";
import { readTimeZone, TIME_ZONE_COOKIE } from "~/components/date-time";
import { useCspNonce } from "~/services/csp-nonce";
import { env } from "~/services/env.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  return { timeZone: readTimeZone(request.headers.get("cookie")), noScriptRefreshSeconds: env().noScriptRefreshSeconds };
}

/** Remembers the browser's time zone so server-rendered dates match the reader's clock. */
const timeZoneScript = `try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&document.cookie.indexOf("${TIME_ZONE_COOKIE}="+encodeURIComponent(z))<0)document.cookie="${TIME_ZONE_COOKIE}="+encodeURIComponent(z)+";path=/;max-age=31536000;samesite=lax"}catch(e){}`;

/**
 * A navigation that a newer one interrupts is aborted by Remix's router, and a promise of it (inside the router,
 * out of the app's reach) can reject unhandled with the AbortError, which the browser reports as an error. Only
 * that rejection is marked handled; any other still reaches the console.
 */
const abortedNavigationScript = `addEventListener("unhandledrejection",function(e){var r=e.reason;if(r&&r.name==="AbortError")e.preventDefault()})`;

export function Layout({ children }: { children: React.ReactNode }) {
  // The Content-Security-Policy runs inline scripts only with this response's nonce (scripts/web-edge.ts).
  const nonce = useCspNonce();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <Meta />
        <Links />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: timeZoneScript }} />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: abortedNavigationScript }} />
      </head>
      <body className="h-full">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function useTimeZone(): string {
  return useRouteLoaderData<typeof loader>("root")?.timeZone ?? "UTC";
}

/** Without JavaScript, how often a page following a run in progress reloads itself (NO_SCRIPT_REFRESH_SECONDS). */
export function useNoScriptRefreshSeconds(): number {
  return useRouteLoaderData<typeof loader>("root")?.noScriptRefreshSeconds ?? 3;
}

/** The heading of the error page: the user's request (a 4xx) is told apart from a fault of ours. */
function errorHeading(status: number): string {
  if (status === 404) return "Page not found";
  if (status === 400 || status === 413 || status === 415) return "This form could not be sent";
  return "Something went wrong";
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error)
    ? typeof error.data === "string" && error.data
      ? error.data
      : error.statusText
    : "Something went wrong on our side. Please try again.";
  return (
    <main className="grid min-h-full place-items-center px-6 py-24">
      <div className="text-center">
        <Logo className="mx-auto h-10 w-auto" />
        <p className="mt-8 text-base font-semibold text-brand-700">{status}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight">{errorHeading(status)}</h1>
        <p className="mt-4 text-slate-600">{message}</p>
        <a href="/connectors" className="btn-primary mt-8">
          Back to Tributary
        </a>
      </div>
    </main>
  );
}
