import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { AppShell } from "~/components/app-shell";
import { requireUser, requireUserInfo } from "~/services/session.server";

/**
 * The list pages' loaders (loadListPage) prove the session with their own backend call, which answers 401 when it
 * is over, and sign the user out then: for them the layout does not make a second call to /validate-session.
 */
const SELF_CHECKING = new Set(["/connectors", "/sources", "/destinations", "/transforms"]);

/** Every signed-in page lives in the shell; signed-out visitors go to sign-in. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  return { user: SELF_CHECKING.has(path) ? await requireUserInfo(request) : await requireUser(request) };
}

export default function SignedInLayout() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <AppShell user={user}>
      <Outlet />
    </AppShell>
  );
}

export function useUser() {
  const data = useRouteLoaderData<typeof loader>("routes/_app");
  if (!data) throw new Error("useUser must be used inside the signed-in layout");
  return data.user;
}
