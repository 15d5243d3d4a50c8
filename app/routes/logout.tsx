import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { readForm } from "~/services/form.server";
import { endSession } from "~/services/session.server";

export const loader = () => redirect("/");

/** Ends the session on the backend, forgets the user info, and goes to sign-in. */
export async function action({ request }: ActionFunctionArgs) {
  await readForm(request);
  return redirect("/", { headers: await endSession(request) });
}
