import { useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { SOURCE_MESSAGES, updateSourceBodySchema } from "@contract/sources";
import { ErrorBlock } from "~/components/ui/error-block";
import { FormBanner } from "~/components/ui/form-banner";
import { useHydrated } from "remix-utils/use-hydrated";
import { BackLink } from "~/components/ui/back-link";
import { Field, fieldClasses } from "~/components/ui/field";
import { api, loadSource } from "~/services/sources.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Update ${data?.source?.name ?? "Source"} · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  return loadSource(request, params.id ?? "");
}

/** Spec §7 PUT /sources/update/{id}: the parsed name and description; every problem at its field and in the banner. */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: updateSourceBodySchema });
  if (submission.status !== "success") return Response.json({ result: submission.reply() }, { status: 400 });
  const result = await api.updateSource(request, params.id ?? "", submission.value);
  if (!result.ok) return Response.json({ result: submission.reply({ formErrors: [SOURCE_MESSAGES.updateFailed(result.message)] }) }, { status: result.status === 404 ? 404 : 400 });
  return redirect(`/sources/details/${result.data.id}`);
}

export default function EditSource() {
  const { source, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ result: SubmissionResult<string[]> }>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [form, fields] = useForm({ id: "source-edit", lastResult: actionData?.result ?? null, shouldValidate: "onSubmit" });
  const typed = actionData?.result.initialValue ?? null;
  const [name, setName] = useState(typeof typed?.name === "string" ? typed.name : (source?.name ?? ""));
  const [description, setDescription] = useState(typeof typed?.description === "string" ? typed.description : (source?.description ?? ""));
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
  const nameError = fields.name.errors?.[0];
  const descriptionError = fields.description.errors?.[0];
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to={`/sources/details/${source.id}`}>{source.name}</BackLink>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">Update Source</h1>
      <FormBanner errors={[...(form.errors ?? []), ...(fields.name.errors ?? []), ...(fields.description.errors ?? [])]} />
      <Form method="post" {...getFormProps(form)} className="card space-y-5 p-6">
        <Field name="name" label="Name" idPrefix="source" error={nameError}>
          <input
            id="source-name"
            name="name"
            type="text"
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={fieldClasses.input}
            autoComplete="off"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "source-name-error" : undefined}
          />
        </Field>
        <Field name="description" label="Description" idPrefix="source" error={descriptionError}>
          <textarea
            id="source-description"
            name="description"
            rows={3}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            className={fieldClasses.input}
            aria-invalid={descriptionError ? true : undefined}
            aria-describedby={descriptionError ? "source-description-error" : undefined}
          />
        </Field>
        <Field name="integration_type" label="Source type" idPrefix="source" hint="The type of a source cannot change. Create a new source to use another integration.">
          <input id="source-integration_type" type="text" value={source.integration_label} disabled readOnly className={fieldClasses.input} aria-describedby="source-integration_type-hint" />
        </Field>
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
