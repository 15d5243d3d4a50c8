import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { TRANSFORM_MESSAGES as M, transformCreateSchema, type PreviewResponse, type TemplateInput } from "@contract/transforms";
import { ErrorBlock } from "~/components/ui/error-block";
import { FormBanner } from "~/components/ui/form-banner";
import { BackLink } from "~/components/ui/back-link";
import { TemplateInputFields, TransformPreview } from "~/components/transform-inputs";
import { TransformSteps } from "~/components/transform-steps";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { createTransform, loadTemplate, loadTemplateInputs, parseTemplateInputs, previewTemplate } from "~/services/transforms.server";
import { clearDraft, requireDraft, type WizardDraft } from "~/services/transform-draft.server";

export const meta: MetaFunction = () => [{ title: "Configure Transform · Tributary" }];

interface PageData {
  templateId: string;
  templateName: string;
  inputs: Record<string, TemplateInput>;
  values: Record<string, string>;
  summary: { name: string; frequency: string; fileType: string; permissions: boolean };
  fatal: string | null;
  errors: string[];
  preview: PreviewResponse | null;
}

async function loadPage(request: Request, draft: WizardDraft, templateId: string): Promise<PageData> {
  const base: PageData = {
    templateId,
    templateName: templateId,
    inputs: {},
    values: {},
    summary: { name: draft.name, frequency: draft.frequency, fileType: draft.file_type, permissions: draft.permissions_setup },
    fatal: null,
    errors: [],
    preview: null,
  };
  const [template, inputs] = await Promise.all([loadTemplate(request, templateId, draft.connector_id), loadTemplateInputs(request, templateId)]);
  if (!template.ok) return { ...base, fatal: template.status === 404 ? M.templateNotFound : M.fetchTemplateDetailsFailed };
  if (!inputs.ok) return { ...base, templateName: template.data.name, fatal: M.loadTemplateFailed };
  return { ...base, templateName: template.data.name, inputs: inputs.data };
}

/** The draft for this template; a draft made for another template goes to that one's page. */
async function draftFor(request: Request, templateName: string): Promise<WizardDraft & { template_id: string }> {
  const draft = (await requireDraft(request, { template: true })) as WizardDraft & { template_id: string };
  if (draft.template_id !== templateName) throw redirect(`/transforms/templates/config/${encodeURIComponent(draft.template_id)}`);
  return draft;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const draft = await draftFor(request, params.templateName ?? "");
  return loadPage(request, draft, draft.template_id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readForm(request);
  const draft = await draftFor(request, params.templateName ?? "");
  const intent = String(form.get("intent") ?? "create");
  const page = await loadPage(request, draft, draft.template_id);
  // A template or connector that is gone is the draft's problem (404), not a failure of the server behind.
  if (page.fatal) return data(page, { status: page.fatal === M.templateNotFound ? 404 : 502 });
  const parsed = parseTemplateInputs(page.inputs, form);
  page.values = parsed.raw;
  if (parsed.errors.length) return data({ ...page, errors: parsed.errors }, { status: 400 });

  if (intent === "preview") {
    if (!draft.connector_id) return data({ ...page, errors: [M.templateCreateIncomplete] }, { status: 400 });
    const preview = await previewTemplate(request, draft.template_id, {
      connector_id: draft.connector_id,
      inputs: parsed.values,
      requirement_inputs: draft.requirement_inputs,
      file_types: [draft.file_type],
    });
    if (!preview.ok) return data({ ...page, errors: [preview.message || M.previewFailed] }, { status: 400 });
    return data({ ...page, preview: preview.data });
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
    inputs: parsed.values,
    requirement_inputs: draft.requirement_inputs,
  });
  if (!body.success) return data({ ...page, errors: [...new Set(body.error.issues.map((i) => i.message))] }, { status: 400 });
  const created = await createTransform(request, body.data);
  if (!created.ok) return data({ ...page, errors: [created.message || M.createFailed] }, { status: 400 });
  return redirect(`/transforms/details/${encodeURIComponent(created.data.transform_id)}`, { headers: { "set-cookie": await clearDraft(request) } });
}

const FREQUENCY_LABEL: Record<string, string> = { daily: "Daily", hourly: "Hourly" };

export default function ConfigureTransform() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const page: PageData = actionData ?? loaded;
  const navigation = useNavigation();
  const busyIntent = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST" ? String(navigation.formData?.get("intent") ?? "") : null;
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
          <FormBanner errors={page.errors} />
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
              <p className="mt-0.5 font-medium text-slate-900">{page.summary.fileType}</p>
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
          <Form method="post" className="space-y-6" noValidate key={JSON.stringify(page.values)}>
            <section className="card p-6">
              <TemplateInputFields inputs={page.inputs} values={page.values} />
            </section>
            {page.preview ? <TransformPreview preview={page.preview} /> : null}
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
