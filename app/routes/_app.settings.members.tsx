import { useEffect, useRef } from "react";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { MEMBERS_FORM_FIELDS, membersFormSchema, WORKSPACE_MESSAGES as M, type Invitation, type Member } from "@contract/workspaces";
import { invitationStatusLabel } from "@contract/labels";
import { DateTime } from "~/components/date-time";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { CopyButton } from "~/components/ui/copy-button";
import { ErrorBlock } from "~/components/ui/error-block";
import { Field } from "~/components/ui/field";
import { StatusBadge } from "~/components/ui/status-badge";
import { readForm } from "~/services/form.server";
import { requireUserInfo } from "~/services/session.server";
import {
  createWorkspace,
  inviteMember,
  leaveWorkspace,
  loadMembers,
  removeMember,
  renameWorkspace,
  resendInvitation,
  revokeInvitation,
} from "~/services/workspaces.server";
import { useTimeZone } from "~/root";

export const meta: MetaFunction = () => [{ title: "Members · Tributary" }];

/** An invitation's link is on the page once, after it is made or sent again: never kept by a cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

/** What a redirect back here says (`?done=`): the current workspace's name completes the sentence. */
const DONE = {
  joined: M.joined,
  created: (name: string) => M.created(name),
  left: (name: string) => `You left the workspace. You are now working in ${name}.`,
  renamed: () => M.renamed,
} as const;
type Done = keyof typeof DONE;
const isDone = (value: string | null): value is Done => value !== null && Object.hasOwn(DONE, value);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserInfo(request);
  const outcome = await loadMembers(request);
  const query = new URL(request.url).searchParams;
  const done = query.get("done");
  return {
    page: outcome.ok ? outcome.data : null,
    error: outcome.ok ? null : outcome.message,
    done: isDone(done) && outcome.ok ? DONE[done](outcome.data.workspace.name) : null,
    removeId: query.get("remove"),
    leaving: query.get("leave") === "1",
    newWorkspace: query.get("new") === "1",
  };
}

type Field = "email" | "name" | "new_name";
type ActionData = {
  /** A sentence that something was done. */
  notice?: string;
  /** An invitation's link, for the inviter to pass on. */
  link?: { email: string; url: string };
  /** A refusal, at the form (and field) it came from. */
  error?: { form: string; field?: Field; message: string; typed?: string };
};

const reply = (data: ActionData, status = 200) => Response.json(data satisfies ActionData, { status, headers: { "Cache-Control": "no-store" } });
const UNREADABLE = "This form could not be read. Please reload the page and try again.";
const statusOf = (status: number) => (status >= 500 ? 502 : status);

/** Every form of the page posts here, told apart by `intent`. */
export async function action({ request }: ActionFunctionArgs) {
  await requireUserInfo(request);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: membersFormSchema });
  if (submission.status !== "success") {
    const intent = String(form.get("intent") ?? "");
    const field: Field | undefined = Object.hasOwn(MEMBERS_FORM_FIELDS, intent) ? MEMBERS_FORM_FIELDS[intent as keyof typeof MEMBERS_FORM_FIELDS] : undefined;
    const message = field ? submission.error?.[field]?.[0] : undefined;
    if (field && message) return reply({ error: { form: intent, field, message, typed: String(form.get(field) ?? "") } }, 400);
    return reply({ error: { form: "page", message: UNREADABLE } }, 400);
  }
  const value = submission.value;
  switch (value.intent) {
    case "invite": {
      const sent = await inviteMember(request, value.email);
      if (!sent.ok) return reply({ error: { form: "invite", field: "email", message: sent.message, typed: value.email } }, statusOf(sent.status));
      return reply({ notice: sent.data.message, link: { email: sent.data.invitation.email, url: sent.data.link } });
    }
    case "resend": {
      const sent = await resendInvitation(request, value.id);
      if (!sent.ok) return reply({ error: { form: "invitations", message: sent.message } }, statusOf(sent.status));
      return reply({ notice: sent.data.message, link: { email: sent.data.invitation.email, url: sent.data.link } });
    }
    case "revoke": {
      const revoked = await revokeInvitation(request, value.id);
      if (!revoked.ok) return reply({ error: { form: "invitations", message: revoked.message } }, statusOf(revoked.status));
      return reply({ notice: revoked.data.message });
    }
    case "remove": {
      const removed = await removeMember(request, value.id);
      if (!removed.ok) return reply({ error: { form: "remove", message: removed.message } }, statusOf(removed.status));
      return reply({ notice: removed.data.message });
    }
    case "leave": {
      const left = await leaveWorkspace(request);
      if (!left.ok) return reply({ error: { form: "leave", message: left.message } }, statusOf(left.status));
      return redirect("/settings/members?done=left");
    }
    case "rename": {
      const renamed = await renameWorkspace(request, value.name);
      if (!renamed.ok) return reply({ error: { form: "rename", field: "name", message: renamed.message, typed: value.name } }, statusOf(renamed.status));
      return redirect("/settings/members?done=renamed");
    }
    case "create": {
      const made = await createWorkspace(request, value.new_name);
      if (!made.ok) return reply({ error: { form: "create", field: "new_name", message: made.message, typed: value.new_name } }, statusOf(made.status));
      return redirect("/settings/members?done=created");
    }
  }
}

function Notice({ text, link }: { text: string; link?: ActionData["link"] }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus({ preventScroll: true }), [text, link?.url]);
  return (
    <section ref={ref} tabIndex={-1} role="status" className="mb-6 rounded-xl border border-green-200 bg-green-50 p-4 text-sm text-green-900 outline-none">
      <p>{text}</p>
      {link ? (
        <div className="mt-3">
          <label htmlFor="invitation-link" className="block font-medium text-slate-800">
            Or send {link.email} this link yourself (it works only for a sign-in with that address)
          </label>
          <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
            <textarea
              id="invitation-link"
              readOnly
              rows={2}
              value={link.url}
              spellCheck={false}
              onFocus={(event) => event.currentTarget.select()}
              className="block w-full min-w-0 resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs break-all text-slate-900 field-sizing-content"
              data-testid="invitation-link"
            />
            <div className="shrink-0">
              <CopyButton text={() => link.url} label="Copy link" />
            </div>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function ErrorNote({ message }: { message: string }) {
  return (
    <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      {message}
    </p>
  );
}

function MemberList({ members, formError }: { members: Member[]; formError: string | null }) {
  const timeZone = useTimeZone();
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading" className="mb-3 text-lg font-semibold text-slate-900">
        Members
      </h2>
      {formError ? <ErrorNote message={formError} /> : null}
      <ul className="card divide-y divide-slate-100" data-testid="members">
        {members.map((member) => (
          <li key={member.id} data-member-id={member.id} className="flex flex-col gap-2 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0">
              <p className="font-semibold break-words text-slate-900">
                {member.name}
                {member.you ? <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">You</span> : null}
              </p>
              <p className="text-sm break-all text-slate-600">{member.email}</p>
              <p className="text-xs text-slate-500">
                Joined <DateTime value={member.joined_at} timeZone={timeZone} />
              </p>
            </div>
            {member.you ? (
              // The last member may not leave (the server refuses it too): the button shows once someone else is here.
              members.length > 1 ? (
                <Link to="?leave=1" className="btn-secondary self-start sm:self-auto">
                  Leave workspace
                </Link>
              ) : null
            ) : (
              <Link to={`?remove=${member.id}`} className="btn-secondary self-start sm:self-auto" aria-label={`Remove ${member.name}`}>
                Remove
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function InvitationList({ invitations, formError }: { invitations: Invitation[]; formError: string | null }) {
  const timeZone = useTimeZone();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? String(navigation.formData?.get("id") ?? "") : null;
  return (
    <section aria-labelledby="invitations-heading" className="mt-8">
      <h2 id="invitations-heading" className="mb-3 text-lg font-semibold text-slate-900">
        Pending invitations
      </h2>
      {formError ? <ErrorNote message={formError} /> : null}
      {invitations.length === 0 ? (
        <p className="card px-6 py-6 text-center text-sm text-slate-600">No pending invitations.</p>
      ) : (
        <ul className="card divide-y divide-slate-100" data-testid="invitations">
          {invitations.map((invitation) => (
            <li key={invitation.id} data-invitation-id={invitation.id} className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-semibold break-all text-slate-900">{invitation.email}</p>
                  <StatusBadge status={invitationStatusLabel(invitation.status)} />
                </div>
                <p className="text-xs text-slate-500">
                  {invitation.invited_by ? `Invited by ${invitation.invited_by} · ` : ""}
                  {invitation.status === "expired" ? "Expired " : "Expires "}
                  <DateTime value={invitation.expires_at} timeZone={timeZone} />
                </p>
              </div>
              <Form method="post" className="flex gap-2">
                <input type="hidden" name="id" value={invitation.id} />
                <button type="submit" name="intent" value="resend" className="btn-secondary" disabled={busy === invitation.id} aria-label={`Resend the invitation to ${invitation.email}`}>
                  Resend
                </button>
                <button type="submit" name="intent" value="revoke" className="btn-secondary" disabled={busy === invitation.id} aria-label={`Revoke the invitation to ${invitation.email}`}>
                  Revoke
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A one-field form (invite, rename, new workspace): what was typed stays after a refusal, the error at the field. */
function OneFieldForm(props: {
  id: string;
  title: string;
  intent: string;
  field: Field;
  label: string;
  type?: string;
  hint: string;
  submit: string;
  busyLabel: string;
  defaultValue?: string;
  error?: ActionData["error"];
  focus?: boolean;
  resetKey?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === props.intent;
  const error = props.error?.form === props.intent ? props.error : undefined;
  useEffect(() => {
    if (props.focus) document.getElementById(`${props.id}-${props.field}`)?.focus();
  }, [props.focus, props.id, props.field]);
  return (
    <section aria-labelledby={`${props.id}-heading`} className="mt-8" id={props.id}>
      <h2 id={`${props.id}-heading`} className="mb-3 text-lg font-semibold text-slate-900">
        {props.title}
      </h2>
      <Form method="post" noValidate className="card flex flex-col gap-4 p-6 sm:flex-row sm:items-start" key={props.resetKey}>
        <div className="min-w-0 flex-1">
          <Field
            name={props.field}
            label={props.label}
            type={props.type}
            idPrefix={props.id}
            defaultValue={error?.typed ?? props.defaultValue}
            error={error?.message}
            hint={props.hint}
            autoComplete={props.type === "email" ? "email" : "off"}
          />
        </div>
        <button type="submit" name="intent" value={props.intent} className="btn-primary shrink-0 sm:mt-6" disabled={busy}>
          {busy ? props.busyLabel : props.submit}
        </button>
      </Form>
    </section>
  );
}

export default function MembersPage() {
  const { page, error, done, removeId, leaving, newWorkspace } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const formError = (form: string) => (actionData?.error?.form === form ? actionData.error.message : null);
  if (!page) {
    return (
      <div className="mx-auto max-w-4xl">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Members</h1>
        <div className="mt-6">
          <ErrorBlock message={error ?? M.fetchFailed} />
        </div>
      </div>
    );
  }
  const removing = page.members.find((m) => m.id === removeId && !m.you);
  const notice = actionData?.notice ?? done;
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Members</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        Everyone in <strong className="font-semibold text-slate-800">{page.workspace.name}</strong> sees and changes its connectors, sources, destinations, transforms, alert
        settings and API keys. Invite your team by e-mail.
      </p>
      {notice ? <Notice text={notice} link={actionData?.link} /> : null}
      {formError("page") ? <ErrorNote message={formError("page")!} /> : null}
      <MemberList members={page.members} formError={formError("remove") && !removing ? formError("remove") : formError("leave") && !leaving ? formError("leave") : null} />
      <InvitationList invitations={page.invitations} formError={formError("invitations")} />
      <OneFieldForm
        id="invite"
        title="Invite a member"
        intent="invite"
        field="email"
        type="email"
        label="E-mail address"
        hint="They get a link that works once, for 7 days, when they sign in with this address."
        submit="Send invitation"
        busyLabel="Sending..."
        error={actionData?.error}
        resetKey={actionData?.link?.url ?? "invite"}
      />
      <OneFieldForm
        id="rename"
        title="Workspace name"
        intent="rename"
        field="name"
        label="Name"
        hint="What members see in their profile menu."
        submit="Save name"
        busyLabel="Saving..."
        defaultValue={page.workspace.name}
        error={actionData?.error}
      />
      <OneFieldForm
        id="create"
        title="New workspace"
        intent="create"
        field="new_name"
        label="Name of the new workspace"
        hint="You become its first member and work in it from then on; your other workspaces stay in your profile menu."
        submit="Create workspace"
        busyLabel="Creating..."
        error={actionData?.error}
        focus={newWorkspace}
      />
      {removing ? (
        <ConfirmDialog
          title="Remove member?"
          body={
            <>
              <strong className="font-semibold text-slate-900">{removing.name}</strong> ({removing.email}) loses access to {page.workspace.name} at once, and the API keys
              they made for it stop working. Their records stay in the workspace.
            </>
          }
          confirmLabel="Remove"
          busyLabel="Removing..."
          cancelTo="/settings/members"
          hidden={{ intent: "remove", id: removing.id }}
          error={formError("remove")}
        />
      ) : null}
      {leaving ? (
        <ConfirmDialog
          title="Leave workspace?"
          body={
            <>
              You lose access to <strong className="font-semibold text-slate-900">{page.workspace.name}</strong> and the API keys you made for it stop working. Its records
              stay with its other members; you move to your own workspace.
            </>
          }
          confirmLabel="Leave"
          busyLabel="Leaving..."
          cancelTo="/settings/members"
          hidden={{ intent: "leave" }}
          error={formError("leave")}
        />
      ) : null}
    </div>
  );
}
