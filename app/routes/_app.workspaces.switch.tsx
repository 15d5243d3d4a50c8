import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { switchWorkspaceFormSchema, WORKSPACE_MESSAGES as M } from "@contract/workspaces";
import { readForm } from "~/services/form.server";
import { requireUserInfo } from "~/services/session.server";
import { switchWorkspace } from "~/services/workspaces.server";

export const meta: MetaFunction = () => [{ title: "Switch workspace · Tributary" }];

/** Only the profile menu's forms post here; a visit goes to the connectors. */
export const loader = () => redirect("/connectors");

/** Works in another workspace of the member's from now on, and opens its connectors. */
export async function action({ request }: ActionFunctionArgs) {
  await requireUserInfo(request);
  const submission = parseWithZod(await readForm(request), { schema: switchWorkspaceFormSchema });
  const switched = await switchWorkspace(request, submission.status === "success" ? submission.value.workspace_id : "");
  if (switched.ok) return redirect("/connectors");
  return Response.json({ message: switched.status === 404 ? M.notFound : switched.message }, { status: switched.status === 404 ? 404 : 502 });
}

export default function SwitchWorkspace() {
  const failed = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Switch workspace</h1>
      <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
        {failed?.message ?? M.notFound}
      </p>
      <p className="mt-3 text-sm text-slate-600">You may have left it or been removed from it. Choose a workspace from your profile menu.</p>
      <Link to="/connectors" className="btn-secondary mt-6 inline-flex">
        Back to connectors
      </Link>
    </div>
  );
}
