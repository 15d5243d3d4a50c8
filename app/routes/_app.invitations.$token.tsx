import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { joinWorkspaceFormSchema, WORKSPACE_MESSAGES as M } from "@contract/workspaces";
import { DateTime } from "~/components/date-time";
import { readForm } from "~/services/form.server";
import { requireUserInfo } from "~/services/session.server";
import { acceptInvitation, checkInvitation } from "~/services/workspaces.server";
import { useTimeZone } from "~/root";
import { useUser } from "./_app";

/**
 * The page an invitation's link opens (issue 51). Signed out, the layout sends the visitor to sign in and back here.
 * Opening the link changes nothing (a mail scanner that follows links joins nobody); Accept does, for a sign-in with
 * the invited address only. Every refusal is a sentence, with the status it deserves.
 */

export const meta: MetaFunction = () => [{ title: "Invitation · Tributary" }, { name: "robots", content: "noindex" }];

/** The token is in the address: never kept by a cache, never sent to another site as a referrer. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "same-origin" });

const refusalStatus = (status: number) => (status >= 500 ? 502 : status);

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserInfo(request);
  const outcome = await checkInvitation(request, params.token ?? "");
  if (outcome.ok) return { offer: outcome.data, refusal: null };
  return data({ offer: null, refusal: outcome.message }, { status: refusalStatus(outcome.status) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUserInfo(request);
  // Join has no field: the form is read (and refused if it is not one) so that nothing else is taken.
  parseWithZod(await readForm(request), { schema: joinWorkspaceFormSchema });
  const joined = await acceptInvitation(request, params.token ?? "");
  if (joined.ok) return redirect("/settings/members?done=joined");
  return Response.json({ refusal: joined.message }, { status: refusalStatus(joined.status) });
}

export default function InvitationPage() {
  const { offer, refusal } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const user = useUser();
  const timeZone = useTimeZone();
  const busy = useNavigation().state === "submitting";
  const why = failed?.refusal ?? refusal;
  return (
    <div className="mx-auto max-w-xl">
      {why || !offer ? (
        <>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">This invitation cannot be used</h1>
          <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {why ?? M.invitationInvalid}
          </p>
          <p className="mt-4 text-sm text-slate-600">
            You are signed in as <strong className="font-semibold text-slate-800">{user.email}</strong>.
          </p>
          <Link to="/connectors" className="btn-secondary mt-6 inline-flex">
            Go to your connectors
          </Link>
        </>
      ) : (
        <section className="card p-6" aria-labelledby="invitation-heading">
          <h1 id="invitation-heading" className="text-2xl font-bold tracking-tight text-slate-900">
            Join {offer.workspace.name}
          </h1>
          <p className="mt-2 text-sm text-slate-700">
            {offer.invited_by ? `${offer.invited_by} invited you` : "You are invited"} to the workspace <strong className="font-semibold">{offer.workspace.name}</strong>.
            Its members share its connectors, sources, destinations, transforms, alert settings and API keys, and may all change them.
          </p>
          <p className="mt-2 text-sm text-slate-600">
            The invitation is for {offer.email}, and works until <DateTime value={offer.expires_at} timeZone={timeZone} />.
          </p>
          <Form method="post" className="mt-6 flex flex-wrap justify-end gap-3">
            <Link to="/connectors" className="btn-secondary">
              Not now
            </Link>
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? "Joining..." : `Join ${offer.workspace.name}`}
            </button>
          </Form>
        </section>
      )}
    </div>
  );
}
