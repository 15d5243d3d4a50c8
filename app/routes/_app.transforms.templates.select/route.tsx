import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useRef } from "react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { TRANSFORM_MESSAGES as M, templateChoiceSchema } from "@contract/transforms";
import { useChoiceSelect } from "~/components/ui/choice-select";
import { ContinueButton } from "~/components/ui/continue-button";
import { ErrorBlock } from "~/components/ui/error-block";
import { Field } from "~/components/ui/field";
import { FormBanner } from "~/components/ui/form-banner";
import { BackLink } from "~/components/ui/back-link";
import { bannerErrors, controlClasses, controlProps, firstError } from "~/components/transform-fields";
import { TransformSteps } from "~/components/transform-steps";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { loadTemplate } from "~/services/transforms.server";
import { requireDraft, saveDraft, takeNotice } from "~/services/transform-draft.server";
import { build, type PageData } from "./page.server";
import { TemplatePanel } from "./template-panel";

export const meta: MetaFunction = () => [{ title: "Choose a Template · Tributary" }];

const PATH = "/transforms/templates/select";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const draft = await requireDraft(request);
  const url = new URL(request.url);
  const wanted = {
    category: url.searchParams.get("category") ?? "",
    template: url.searchParams.get("template") ?? "",
    prevCategory: url.searchParams.get("prev_category"),
  };
  const [page, { notice, setCookie }] = await Promise.all([build(request, wanted, draft.template_id, draft.connector_id), takeNotice(request)]);
  return data({ ...page, notice, draftName: draft.name }, setCookie ? { headers: { "set-cookie": setCookie } } : undefined);
}

type ActionData = PageData & { draftName: string; result: SubmissionResult<string[]> };

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const formData = await readForm(request);
  const draft = await requireDraft(request);
  const submission = parseWithZod(formData, { schema: templateChoiceSchema });
  const refuse = async (result: SubmissionResult<string[]>) => {
    const category = String(formData.get("category") ?? "");
    const template = String(formData.get("template") ?? "");
    const page = await build(request, { category, template, prevCategory: null }, draft.template_id, draft.connector_id);
    return data({ ...page, draftName: draft.name, result } satisfies ActionData, { status: 400 });
  };
  if (submission.status !== "success") return refuse(submission.reply());
  const template = await loadTemplate(request, submission.value.template, draft.connector_id);
  if (!template.ok) return refuse(submission.reply({ fieldErrors: { template: [template.status === 404 ? M.templateNotFound : M.fetchTemplateDetailsFailed] } }));
  const changed = draft.template_id !== template.data.id;
  const cookie = await saveDraft(request, {
    ...draft,
    template_id: template.data.id,
    ...(changed ? { steps_done: 0, requirement_inputs: {}, permissions_setup: false } : {}),
  });
  return redirect("/transforms/templates/permissions", { headers: { "set-cookie": cookie } });
}

/**
 * The template step: a category and one of its templates, shown in full. Changing either reloads the page's data
 * through the address (a GET): with JavaScript at once, without it by the choice's Continue button. The form is not
 * remounted by that (only the template select, when the category brings other templates), so the select just
 * changed keeps the keyboard focus.
 */
export default function SelectTemplate() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const page = actionData ?? loaded;
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useForm({
    id: "template-select",
    lastResult: actionData?.result ?? null,
    constraint: getZodConstraint(templateChoiceSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: templateChoiceSchema }),
  });
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const loading = navigation.state === "loading" && navigation.location?.pathname === PATH;
  const t = page.template;
  const templateError = firstError(fields.template.errors);
  const cascade = () => {
    if (formRef.current) submit(formRef.current, { method: "get", action: PATH, replace: true, preventScrollReset: true });
  };
  const categorySelect = useChoiceSelect(page.category, cascade);
  const templateSelect = useChoiceSelect(t?.id ?? "", cascade);
  return (
    <div className="mx-auto max-w-5xl">
      <BackLink to="/transforms/add">Transform details</BackLink>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Choose a Template</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        The analysis pipeline for <strong className="font-semibold text-slate-800">{page.draftName}</strong>. You can adjust its settings after the permissions
        are set up.
      </p>
      <TransformSteps current={2} />
      {loaded.notice ? (
        <p role="status" className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {loaded.notice}
        </p>
      ) : null}
      {page.fatal ? (
        <ErrorBlock message={page.fatal} />
      ) : (
        <>
          <FormBanner errors={bannerErrors([], form.errors, form.allErrors)} />
          <Form ref={formRef} method="post" action={PATH} {...getFormProps(form)} className="space-y-6">
            <input type="hidden" name="prev_category" value={page.category} />
            <section className="card grid gap-5 p-6 sm:grid-cols-2">
              <Field idPrefix="choice" name="category" label="Category">
                <div className="flex gap-2">
                  <select ref={categorySelect} {...controlProps("choice", "category", undefined)} defaultValue={page.category} className={controlClasses} onChange={cascade}>
                    {page.categories.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                  <ContinueButton what="category" className="btn-secondary mt-1" />
                </div>
              </Field>
              <Field idPrefix="choice" name="template" label="Template" error={templateError}>
                <div className="flex gap-2">
                  {/* Another category brings other templates: only then is the select drawn afresh. */}
                  <select
                    key={page.category}
                    ref={templateSelect}
                    {...controlProps("choice", "template", templateError)}
                    defaultValue={t?.id ?? ""}
                    className={controlClasses}
                    onChange={cascade}
                  >
                    {page.templates.length === 0 ? <option value="">No templates in this category</option> : null}
                    {page.templates.map((option) => (
                      <option key={option.id} value={option.id}>
                        {option.name}
                      </option>
                    ))}
                  </select>
                  <ContinueButton what="template" className="btn-secondary mt-1" />
                </div>
              </Field>
            </section>

            {page.loadError ? <ErrorBlock message={page.loadError} /> : null}
            {t ? <TemplatePanel t={t} categories={page.categories} loading={loading} /> : null}

            <div className="flex items-center justify-end gap-3">
              <a href="/transforms/add" className="btn-secondary">
                Back
              </a>
              <button type="submit" name="intent" value="continue" className="btn-primary" disabled={!t || busy}>
                {busy ? "Saving..." : "Continue"}
              </button>
            </div>
          </Form>
        </>
      )}
    </div>
  );
}
