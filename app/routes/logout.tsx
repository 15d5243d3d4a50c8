import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { backendFetch, relaySetCookie } from "~/services/backend.server";
import { readForm } from "~/services/form.server";
import { getSession, sessionStorage } from "~/services/session.server";

export const loader = () => redirect("/");

/** Ends the session on the backend, forgets the user info, and goes to sign-in. */
export async function action({ request }: ActionFunctionArgs) {
  await readForm(request);
  const response = await backendFetch(request, "/auth/logout", { method: "POST" }).catch(() => null);
  const headers = response ? relaySetCookie(response) : new Headers();
  await response?.body?.cancel();
  headers.append("set-cookie", await sessionStorage().destroySession(await getSession(request)));
  return redirect("/", { headers });
}
