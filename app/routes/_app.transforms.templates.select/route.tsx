import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useRef } from "react";
import { DEFAULT_TEMPLATE_ID, TRANSFORM_MESSAGES as M } from "@contract/transforms";
import { ErrorBlock } from "~/components/ui/error-block";
import { Flowchart } from "~/components/flowchart";
import { FormBanner } from "~/components/ui/form-banner";
import { useHydrated } from "remix-utils/use-hydrated";
import { BackLink } from "~/components/ui/back-link";
import { fieldClasses } from "~/components/ui/field";
import { TransformSteps } from "~/components/transform-steps";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { loadCategories, loadTemplate, loadTemplates, type TemplateDetail, type TemplateSummary } from "~/services/transforms.server";
import { requireDraft, saveDraft, takeNotice } from "~/services/transform-draft.server";

export const meta: MetaFunction = () => [{ title: "Choose a Template · Tributary" }];

interface PageData {
  categories: { id: string; name: string }[];
  templates: TemplateSummary[];
  category: string;
  template: TemplateDetail | null;
  /** A load failure of the categories (the page cannot go on). */
  fatal: string | null;
  /** A load failure of the category's templates or the chosen template (another category may still be chosen). */
  loadError: string | null;
  errors: string[];
  notice: string | null;
}

async function build(
  request: Request,
  wanted: { category: string; template: string; prevCategory: string | null },
  draftTemplate: string | undefined,
  connectorId: string
): Promise<PageData> {
  const page: PageData = { categories: [], templates: [], category: "", template: null, fatal: null, loadError: null, errors: [], notice: null };
  const categories = await loadCategories(request);
  if (!categories.ok) return { ...page, fatal: M.fetchCategoriesFailed };
  page.categories = categories.data;
  // A changed category forgets the template that belonged to the old one.
  let templateId = wanted.prevCategory !== null && wanted.prevCategory !== wanted.category ? "" : wanted.template;
  let category = categories.data.some((c) => c.id === wanted.category) ? wanted.category : "";
  if (!category) {
    // No category named: the one of the remembered (or default) template, else the first.
    const guess = templateId || draftTemplate || DEFAULT_TEMPLATE_ID;
    const known = await loadTemplate(request, guess);
    if (known.ok && categories.data.some((c) => c.id === known.data.category)) {
      category = known.data.category;
      templateId ||= known.data.id;
    } else category = categories.data[0]?.id ?? "";
  }
  page.category = category;
  if (!category) return page;
  const templates = await loadTemplates(request, category);
  if (!templates.ok) return { ...page, loadError: M.fetchTemplatesFailed };
  page.templates = templates.data;
  if (!templates.data.some((t) => t.id === templateId)) {
    const preferred = [draftTemplate, DEFAULT_TEMPLATE_ID].find((id) => templates.data.some((t) => t.id === id));
    templateId = preferred ?? templates.data[0]?.id ?? "";
  }
  if (!templateId) return page;
  const detail = await loadTemplate(request, templateId, connectorId);
  if (!detail.ok) return { ...page, loadError: detail.status === 404 ? M.templateNotFound : M.fetchTemplateDetailsFailed };
  page.template = detail.data;
  return page;
}

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

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readForm(request);
  const draft = await requireDraft(request);
  const templateId = String(form.get("template") ?? "").trim();
  const category = String(form.get("category") ?? "");
  const fail = async (message: string) => {
    const page = await build(request, { category, template: templateId, prevCategory: null }, draft.template_id, draft.connector_id);
    return data({ ...page, errors: [message], notice: null, draftName: draft.name }, { status: 400 });
  };
  if (!templateId) return fail(M.templateIdMissing);
  const template = await loadTemplate(request, templateId, draft.connector_id);
  if (!template.ok) return fail(template.status === 404 ? M.templateNotFound : M.fetchTemplateDetailsFailed);
  const changed = draft.template_id !== template.data.id;
  const cookie = await saveDraft(request, {
    ...draft,
    template_id: template.data.id,
    ...(changed ? { steps_done: 0, requirement_inputs: {}, permissions_setup: false } : {}),
  });
  return redirect("/transforms/templates/permissions", { headers: { "set-cookie": cookie } });
}

export default function SelectTemplate() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const page = actionData ?? loaded;
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/transforms/templates/select";
  const t = page.template;
  const cascade = () => {
    if (formRef.current) submit(formRef.current, { method: "get", action: "/transforms/templates/select", replace: true, preventScrollReset: true });
  };
  return (
    <div className="mx-auto max-w-5xl">
      <BackLink to="/transforms/add">Transform details</BackLink>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Choose a Template</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        The analysis pipeline for <strong className="font-semibold text-slate-800">{page.draftName}</strong>. You can adjust its settings after the permissions
        are set up.
      </p>
      <TransformSteps current={2} />
      {page.notice ? (
        <p role="status" className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {page.notice}
        </p>
      ) : null}
      {page.fatal ? (
        <ErrorBlock message={page.fatal} />
      ) : (
        <>
          <FormBanner errors={page.errors} />
          <Form ref={formRef} method="post" action="/transforms/templates/select" className="space-y-6" noValidate key={`${page.category}|${t?.id ?? ""}`}>
            <input type="hidden" name="prev_category" value={page.category} />
            <section className="card grid gap-5 p-6 sm:grid-cols-2">
              <div>
                <label htmlFor="category" className={fieldClasses.label}>
                  Category
                </label>
                <div className="flex gap-2">
                  <select id="category" name="category" defaultValue={page.category} className={fieldClasses.input} onChange={cascade}>
                    {page.categories.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                  {hydrated ? null : (
                    <button type="submit" formMethod="get" formNoValidate className="btn-secondary mt-1">
                      Apply
                    </button>
                  )}
                </div>
              </div>
              <div>
                <label htmlFor="template" className={fieldClasses.label}>
                  Template
                </label>
                <div className="flex gap-2">
                  <select id="template" name="template" defaultValue={t?.id ?? ""} className={fieldClasses.input} onChange={cascade}>
                    {page.templates.length === 0 ? <option value="">No templates in this category</option> : null}
                    {page.templates.map((option) => (
                      <option key={option.id} value={option.id}>
                        {option.name}
                      </option>
                    ))}
                  </select>
                  {hydrated ? null : (
                    <button type="submit" formMethod="get" formNoValidate className="btn-secondary mt-1">
                      Show
                    </button>
                  )}
                </div>
              </div>
            </section>

            {page.loadError ? <ErrorBlock message={page.loadError} /> : null}
            {t ? (
              <section className={`card p-6 transition-opacity ${loading ? "opacity-60" : ""}`} aria-labelledby="template-name">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <h2 id="template-name" className="text-lg font-semibold text-slate-900">
                      {t.name}
                    </h2>
                    <p className="mt-1 max-w-3xl text-sm text-slate-600">{t.description}</p>
                  </div>
                  <span className="rounded-md bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">
                    {page.categories.find((c) => c.id === t.category)?.name ?? t.category}
                  </span>
                </div>
                <div className="mt-6">
                  <h3 className="mb-2 text-sm font-semibold text-slate-900">Pipeline</h3>
                  <Flowchart key={t.id} code={t.mermaid_code} descriptions={t.node_descriptions} title={t.name} pipeline={t.pipeline} />
                </div>
                <div className="mt-6 grid gap-6 border-t border-slate-100 pt-6 md:grid-cols-3">
                  <div className="min-w-0">
                    <h3 className="mb-2 text-sm font-semibold text-slate-900">How it works</h3>
                    {t.steps.length ? (
                      <ol className="list-decimal space-y-1.5 pl-5 text-sm text-slate-700" aria-label="Template steps">
                        {t.steps.map((step) => (
                          <li key={step}>{step}</li>
                        ))}
                      </ol>
                    ) : (
                      <p className="text-sm text-slate-600">{t.description}</p>
                    )}
                  </div>
                  <div className="min-w-0">
                    <h3 className="mb-2 text-sm font-semibold text-slate-900">Requirements</h3>
                    {t.requirements.length ? (
                      <ul className="space-y-1.5 text-sm text-slate-700" aria-label="Requirements">
                        {t.requirements.map((r) => (
                          <li key={r} className="flex gap-2">
                            <svg viewBox="0 0 20 20" className="mt-0.5 h-4 w-4 shrink-0 text-green-600" fill="currentColor" aria-hidden="true">
                              <path
                                fillRule="evenodd"
                                d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
                                clipRule="evenodd"
                              />
                            </svg>
                            {r}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <p className="text-sm text-slate-600">Nothing beyond the connector&apos;s data.</p>
                    )}
                  </div>
                  <div className="min-w-0">
                    <h3 className="mb-2 text-sm font-semibold text-slate-900">Writes</h3>
                    {t.outputs.length ? (
                      <ul className="space-y-2 text-sm text-slate-700">
                        {t.outputs.map((o) => (
                          <li key={o.table}>
                            <code className="rounded bg-slate-100 px-1 py-0.5 text-xs break-all text-slate-800">{o.table}</code>
                            <span className="mt-0.5 block text-slate-600">{o.description}</span>
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <p className="text-sm text-slate-600">Results in the destination warehouse.</p>
                    )}
                  </div>
                </div>
              </section>
            ) : null}

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
