import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { AppShell } from "~/components/app-shell";
import { requireUser } from "~/services/session.server";

/** Every signed-in page lives in the shell; signed-out visitors go to sign-in. */
export async function loader({ request }: LoaderFunctionArgs) {
  return { user: await requireUser(request) };
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
