import { redirect } from "@remix-run/node";
import { TRANSFORM_MESSAGES as M, type PreviewResponse, type TemplateInput } from "@contract/transforms";
import { loadTemplate, loadTemplateInputs } from "~/services/transforms.server";
import { requireDraft, type WizardDraft } from "~/services/transform-draft.server";

export interface PageData {
  templateId: string;
  templateName: string;
  inputs: Record<string, TemplateInput>;
  values: Record<string, string>;
  summary: { name: string; frequency: string; fileType: string; permissions: boolean; connectorId: string };
  fatal: string | null;
  preview: PreviewResponse | null;
}

/** The config step's data: the template's inputs and what the draft holds so far. */
export async function loadPage(request: Request, draft: WizardDraft, templateId: string): Promise<PageData> {
  const base: PageData = {
    templateId,
    templateName: templateId,
    inputs: {},
    values: {},
    summary: { name: draft.name, frequency: draft.frequency, fileType: draft.file_type, permissions: draft.permissions_setup, connectorId: draft.connector_id },
    fatal: null,
    preview: null,
  };
  const [template, inputs] = await Promise.all([loadTemplate(request, templateId, draft.connector_id), loadTemplateInputs(request, templateId)]);
  if (!template.ok) return { ...base, fatal: template.status === 404 ? M.templateNotFound : M.fetchTemplateDetailsFailed };
  if (!inputs.ok) return { ...base, templateName: template.data.name, fatal: M.loadTemplateFailed };
  return { ...base, templateName: template.data.name, inputs: inputs.data };
}

/** The draft for this template; a draft made for another template goes to that one's page. */
export async function draftFor(request: Request, templateName: string): Promise<WizardDraft & { template_id: string }> {
  const draft = (await requireDraft(request, { template: true })) as WizardDraft & { template_id: string };
  if (draft.template_id !== templateName) throw redirect(`/transforms/templates/config/${encodeURIComponent(draft.template_id)}`);
  return draft;
}
