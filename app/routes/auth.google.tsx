import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { auth, SignInError } from "~/services/auth.server";
import { readForm } from "~/services/form.server";
import { getSession, safeRedirect, sessionStorage } from "~/services/session.server";

/** Starting sign-in is a POST (it sets cookies); a stray GET goes back to the sign-in page. */
export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request.clone()); // remix-auth reads the request again
  const session = await getSession(request);
  const redirectTo = form.get("redirectTo");
  if (redirectTo) session.set("redirectTo", safeRedirect(redirectTo));
  else session.unset("redirectTo");
  // A return address too long for the session cookie (the app's own are short) is dropped rather than failing sign-in.
  const sessionCookie = await sessionStorage()
    .commitSession(session)
    .catch(() => {
      session.unset("redirectTo");
      return sessionStorage().commitSession(session);
    });
  try {
    await auth().authenticate("google", request);
  } catch (thrown) {
    if (thrown instanceof Response) {
      thrown.headers.append("set-cookie", sessionCookie);
      throw thrown;
    }
    if (thrown instanceof SignInError) {
      session.flash("authError", thrown.message);
      return redirect("/", { headers: { "set-cookie": await sessionStorage().commitSession(session) } });
    }
    throw thrown;
  }
  return redirect("/");
}
