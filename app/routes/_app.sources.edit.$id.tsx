import { useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { SOURCE_MESSAGES, updateSourceBodySchema } from "@contract/sources";
import { ErrorBlock } from "~/components/ui/error-block";
import { FormBanner } from "~/components/ui/form-banner";
import { useHydrated } from "remix-utils/use-hydrated";
import { BackLink } from "~/components/ui/back-link";
import { fieldClasses } from "~/components/ui/field";
import { api, loadSource } from "~/services/sources.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Update ${data?.source?.name ?? "Source"} · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  return loadSource(request, params.id ?? "");
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readForm(request);
  const values = { name: String(form.get("name") ?? ""), description: String(form.get("description") ?? "") };
  const parsed = updateSourceBodySchema.safeParse(values);
  if (!parsed.success) return Response.json({ errors: [parsed.error.issues[0]!.message], values }, { status: 400 });
  const result = await api.updateSource(request, params.id ?? "", parsed.data);
  if (!result.ok) return Response.json({ errors: [SOURCE_MESSAGES.updateFailed(result.message)], values }, { status: result.status === 404 ? 404 : 400 });
  return redirect(`/sources/details/${result.data.id}`);
}

export default function EditSource() {
  const { source, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [name, setName] = useState(actionData?.values.name ?? source?.name ?? "");
  const [description, setDescription] = useState(actionData?.values.description ?? source?.description ?? "");
  if (!source) {
    return (
      <div className="mx-auto max-w-3xl">
        <BackLink to="/sources">Sources</BackLink>
        <ErrorBlock message={error ?? SOURCE_MESSAGES.fetchSourceFailed} />
      </div>
    );
  }
  // Spec §5: Update is enabled only when the name or description changed (without JS it cannot know, so it stays enabled).
  const changed = name !== source.name || description !== source.description;
  const busy = navigation.state === "submitting";
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to={`/sources/details/${source.id}`}>{source.name}</BackLink>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">Update Source</h1>
      <FormBanner errors={actionData?.errors} />
      <Form method="post" className="card space-y-5 p-6" noValidate>
        <div>
          <label htmlFor="name" className={fieldClasses.label}>
            Name
          </label>
          <input id="name" name="name" type="text" value={name} onChange={(e) => setName(e.target.value)} className={fieldClasses.input} autoComplete="off" />
        </div>
        <div>
          <label htmlFor="description" className={fieldClasses.label}>
            Description
          </label>
          <textarea id="description" name="description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} className={fieldClasses.input} />
        </div>
        <div>
          <label htmlFor="integration_type" className={fieldClasses.label}>
            Source type
          </label>
          <input id="integration_type" type="text" value={source.integration_label} disabled readOnly className={fieldClasses.input} />
          <p className="mt-1 text-xs text-slate-600">The type of a source cannot change. Create a new source to use another integration.</p>
        </div>
        <div className="flex items-center justify-end gap-3 border-t border-slate-200 pt-5">
          <Link to={`/sources/details/${source.id}`} className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={busy || (hydrated && !changed)}>
            {busy ? "Updating..." : "Update"}
          </button>
        </div>
      </Form>
    </div>
  );
}
