import { DEFAULT_TEMPLATE_ID, TRANSFORM_MESSAGES as M } from "@contract/transforms";
import { loadCategories, loadTemplate, loadTemplates, type TemplateDetail, type TemplateSummary } from "~/services/transforms.server";

/**
 * The template step's data: the categories, the chosen category's templates and the chosen template in full; only
 * those the draft's connector is offered (a Gmail connector the e-mail templates, a meeting connector the transcript ones).
 */
export interface PageData {
  categories: { id: string; name: string }[];
  templates: TemplateSummary[];
  category: string;
  template: TemplateDetail | null;
  /** A load failure of the categories (the page cannot go on). */
  fatal: string | null;
  /** A load failure of the category's templates or the chosen template (another category may still be chosen). */
  loadError: string | null;
}

export async function build(
  request: Request,
  wanted: { category: string; template: string; prevCategory: string | null },
  draftTemplate: string | undefined,
  connectorId: string
): Promise<PageData> {
  const page: PageData = { categories: [], templates: [], category: "", template: null, fatal: null, loadError: null };
  const categories = await loadCategories(request, connectorId);
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
  const templates = await loadTemplates(request, category, connectorId);
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

