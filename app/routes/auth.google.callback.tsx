import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { auth, clearAttemptCookie, SignInError } from "~/services/auth.server";
import { getSession, safeRedirect, sessionStorage } from "~/services/session.server";

/** The provider sends the browser back here with ?code&state; the backend does the exchange. */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const headers = new Headers({ "set-cookie": await clearAttemptCookie() });
  try {
    const signedIn = await auth().authenticate("google", request);
    for (const cookie of signedIn.setCookies) headers.append("set-cookie", cookie);
    session.set("user_info", signedIn.userInfo);
    const to = safeRedirect(session.get("redirectTo"));
    session.unset("redirectTo");
    headers.append("set-cookie", await sessionStorage().commitSession(session));
    return redirect(to, { headers });
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    // A stale or forged callback link must not sign out someone who is signed in.
    if (session.get("user_info")) return redirect("/connectors", { headers });
    session.flash("authError", error.message);
    headers.append("set-cookie", await sessionStorage().commitSession(session));
    return redirect("/", { headers });
  }
}
