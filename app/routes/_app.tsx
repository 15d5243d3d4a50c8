import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { AppShell } from "~/components/app-shell";
import { requireUserInfo } from "~/services/session.server";
import { loadWorkspaces } from "~/services/workspaces.server";

const SHOWS_ITS_OWN_FAILURE = new Set(["/connectors", "/sources", "/destinations", "/transforms"]);
const trimmed = (path: string) => (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path);
const UNAVAILABLE = "Tributary's server is not answering right now. Please try again in a moment.";

/**
 * Every signed-in page lives in the shell; signed-out visitors go to sign-in. The workspaces call proves the session
 * (a 401 signs the user out) and names where they work for the profile menu; a link to a record of another workspace
 * of theirs switches there first (app/services/workspaces.server.ts), as the page's own call would.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserInfo(request);
  const workspaces = await loadWorkspaces(request);
  if (workspaces.ok) return { user, workspace: workspaces.data.current, workspaces: workspaces.data.workspaces };
  // A list page says itself that its data could not be loaded (its own call fails too); any other page cannot be shown.
  if (!SHOWS_ITS_OWN_FAILURE.has(trimmed(new URL(request.url).pathname))) throw new Response(UNAVAILABLE, { status: 503 });
  return { user, workspace: null, workspaces: [] };
}

export default function SignedInLayout() {
  const { user, workspace, workspaces } = useLoaderData<typeof loader>();
  return (
    <AppShell user={user} workspace={workspace} workspaces={workspaces}>
      <Outlet />
    </AppShell>
  );
}

export function useUser() {
  const data = useRouteLoaderData<typeof loader>("routes/_app");
  if (!data) throw new Error("useUser must be used inside the signed-in layout");
  return data.user;
}

/** The workspace the member works in (its name and id), inside the signed-in layout. */
export function useWorkspace() {
  const data = useRouteLoaderData<typeof loader>("routes/_app");
  if (!data) throw new Error("useWorkspace must be used inside the signed-in layout");
  return data.workspace;
}
