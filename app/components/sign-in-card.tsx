import { Form } from "@remix-run/react";
import { Logo } from "./logo";

function GoogleIcon() {
  return (
    <svg viewBox="0 0 48 48" className="h-5 w-5" aria-hidden="true">
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}

/** The sign-in (and sign-up) card: one button, because an account is a Google account. */
export function SignInCard(props: {
  heading: string;
  lead: string;
  redirectTo: string | null;
  error: string | null;
  localSignIn: boolean;
  /** "Google Cloud Storage, BigQuery, … or PostgreSQL" (contract/integrations/destination-words.ts, in the loader). */
  destinationKinds: string;
  /** "Zoom, Microsoft Teams, … and Outlook" (contract/integrations/sources.ts providersInWords, in the loader). */
  providers: string;
}) {
  return (
    <div className="flex min-h-full flex-col lg:flex-row">
      <section className="relative hidden flex-1 overflow-hidden bg-gradient-to-br from-brand-800 via-brand-700 to-river-500 p-12 text-white lg:flex lg:flex-col lg:justify-between">
        <Logo className="h-9 [&_span]:text-white" />
        <div className="max-w-md">
          <p className="text-3xl font-semibold leading-tight">Meetings and e-mail in your warehouse, analysed — without writing a pipeline.</p>
          <ul className="mt-8 space-y-3 text-brand-50">
            <li>{props.providers} on a schedule</li>
            <li>Into {props.destinationKinds}</li>
            <li>Topics, sentiment and risks from ready-made templates</li>
          </ul>
        </div>
        <p className="text-sm text-brand-100">© Tributary</p>
      </section>
      <main className="flex flex-1 items-center justify-center px-6 py-16">
        <div className="w-full max-w-sm">
          <Logo className="h-9 lg:hidden" />
          <h1 className="mt-8 text-3xl font-bold tracking-tight lg:mt-0">{props.heading}</h1>
          <p className="mt-2 text-slate-600">{props.lead}</p>
          {props.error ? (
            <div role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
              {props.error}
            </div>
          ) : null}
          <Form method="post" action="/auth/google" className="mt-8" reloadDocument>
            {props.redirectTo ? <input type="hidden" name="redirectTo" value={props.redirectTo} /> : null}
            <button type="submit" className="btn-secondary w-full py-3 text-base">
              <GoogleIcon />
              Continue with Google
            </button>
          </Form>
          {props.localSignIn ? (
            <p className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
              <strong className="font-semibold">Local sign-in is active.</strong> Google is not configured on this server
              (GOOGLE_CLIENT_ID is unset), so a local sign-in page stands in for it.
            </p>
          ) : null}
          <p className="mt-8 text-xs leading-relaxed text-slate-500">
            By continuing you agree to our{" "}
            <a href="/terms" className="link">
              Terms of Use
            </a>{" "}
            and{" "}
            <a href="/privacy" className="link">
              Privacy Policy
            </a>
            .
          </p>
        </div>
      </main>
    </div>
  );
}
