import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { z } from "zod";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { TRANSFORM_MESSAGES as M, transformCreateSchema, type TemplateInput } from "@contract/transforms";
import { templateInputsSchema } from "@contract/transform-forms";
import { ErrorBlock } from "~/components/ui/error-block";
import { FormBanner } from "~/components/ui/form-banner";
import { BackLink } from "~/components/ui/back-link";
import { bannerErrors } from "~/components/transform-fields";
import { inputName, TemplateInputFields, TransformPreview } from "~/components/transform-inputs";
import { TransformSteps } from "~/components/transform-steps";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { createTransform, previewTemplate, typedTemplateInputs } from "~/services/transforms.server";
import { clearDraft } from "~/services/transform-draft.server";
import { draftFor, loadPage, type PageData } from "./page.server";

export const meta: MetaFunction = () => [{ title: "Configure Transform · Tributary" }];

/** The config form: the template's inputs (`in.<key>`) and which button was pressed. */
const configSchema = (inputs: Record<string, TemplateInput>) =>
  z.object({ intent: z.enum(["preview", "create"]).default("create"), in: templateInputsSchema(inputs) });

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const draft = await draftFor(request, params.templateName ?? "");
  return loadPage(request, draft, draft.template_id);
}

type ActionData = PageData & { result: SubmissionResult<string[]> | null };

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const formData = await readForm(request);
  const draft = await draftFor(request, params.templateName ?? "");
  const page = await loadPage(request, draft, draft.template_id);
  // A template or connector that is gone is the draft's problem (404), not a failure of the server behind.
  if (page.fatal) return data({ ...page, result: null } satisfies ActionData, { status: page.fatal === M.templateNotFound ? 404 : 502 });
  page.values = typedTemplateInputs(page.inputs, formData);
  const submission = parseWithZod(formData, { schema: configSchema(page.inputs) });
  const refuse = (result: SubmissionResult<string[]>) => data({ ...page, result } satisfies ActionData, { status: 400 });
  if (submission.status !== "success") return refuse(submission.reply());
  const { intent, in: inputs } = submission.value;

  if (intent === "preview") {
    const preview = await previewTemplate(request, draft.template_id, {
      connector_id: draft.connector_id,
      inputs,
      requirement_inputs: draft.requirement_inputs,
      file_types: [draft.file_type],
    });
    if (!preview.ok) return refuse(submission.reply({ formErrors: [preview.message || M.previewFailed] }));
    return data({ ...page, preview: preview.data, result: null } satisfies ActionData);
  }

  const body = transformCreateSchema.safeParse({
    template_id: draft.template_id,
    name: draft.name,
    description: draft.description,
    connector_id: draft.connector_id,
    permissions_setup: draft.permissions_setup,
    frequency: draft.frequency,
    file_types: [draft.file_type],
    status: "PENDING",
    inputs,
    requirement_inputs: draft.requirement_inputs,
  });
  if (!body.success) return refuse(submission.reply({ formErrors: [...new Set(body.error.issues.map((i) => i.message))] }));
  const created = await createTransform(request, body.data);
  if (!created.ok) return refuse(submission.reply({ formErrors: [created.message || M.createFailed] }));
  return redirect(`/transforms/details/${encodeURIComponent(created.data.transform_id)}`, { headers: { "set-cookie": await clearDraft(request) } });
}

const FREQUENCY_LABEL: Record<string, string> = { daily: "Daily", hourly: "Hourly" };

export default function ConfigureTransform() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const page: PageData = actionData ?? loaded;
  const navigation = useNavigation();
  const busyIntent = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST" ? String(navigation.formData?.get("intent") ?? "") : null;
  const schema = useMemo(() => configSchema(page.inputs), [page.inputs]);
  const [form] = useForm({
    id: "transform-config",
    lastResult: actionData?.result ?? null,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const inputErrors = Object.fromEntries(Object.keys(page.inputs).map((key) => [key, form.allErrors[inputName(key)]?.[0]]));
  return (
    <div className="mx-auto max-w-4xl">
      <BackLink to="/transforms/templates/permissions">Permissions</BackLink>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Configure Transform</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        Adjust <strong className="font-semibold text-slate-800">{page.templateName}</strong> for your meetings, preview what will run, then create the
        transform.
      </p>
      <TransformSteps current={4} />
      {page.fatal ? (
        <ErrorBlock message={page.fatal} />
      ) : (
        <div className="space-y-6">
          <FormBanner errors={bannerErrors([], form.errors, form.allErrors)} />
          <section className="card grid grid-cols-2 gap-4 p-6 text-sm sm:grid-cols-4" aria-label="Transform summary">
            <div>
              <p className="text-slate-500">Name</p>
              <p className="mt-0.5 font-medium break-words text-slate-900">{page.summary.name}</p>
            </div>
            <div>
              <p className="text-slate-500">Frequency</p>
              <p className="mt-0.5 font-medium text-slate-900">{FREQUENCY_LABEL[page.summary.frequency] ?? page.summary.frequency}</p>
            </div>
            <div>
              <p className="text-slate-500">File type</p>
              <p className="mt-0.5 font-medium text-slate-900">
                {page.summary.fileType}{" "}
                <Link to="/transforms/add" className="link text-xs font-normal" aria-label="Change the file type">
                  Change
                </Link>
              </p>
            </div>
            <div>
              <p className="text-slate-500">Permissions</p>
              <p className={`mt-0.5 font-medium ${page.summary.permissions ? "text-green-800" : "text-amber-800"}`}>
                {page.summary.permissions ? (
                  "Set up"
                ) : (
                  <Link to="/transforms/templates/permissions" className="link">
                    Not completed
                  </Link>
                )}
              </p>
            </div>
          </section>
          <Form method="post" {...getFormProps(form)} className="space-y-6">
            <section className="card p-6">
              <TemplateInputFields inputs={page.inputs} values={page.values} errors={inputErrors} />
            </section>
            {page.preview ? <TransformPreview preview={page.preview} fileType={page.summary.fileType} connectorId={page.summary.connectorId} /> : null}
            <div className="flex flex-wrap items-center justify-end gap-3">
              <button type="submit" name="intent" value="preview" className="btn-secondary" disabled={!!busyIntent}>
                {busyIntent === "preview" ? "Previewing..." : "Preview"}
              </button>
              <button type="submit" name="intent" value="create" className="btn-primary" disabled={!!busyIntent}>
                {busyIntent === "create" ? "Creating..." : "Create Transform"}
              </button>
            </div>
          </Form>
        </div>
      )}
    </div>
  );
}
