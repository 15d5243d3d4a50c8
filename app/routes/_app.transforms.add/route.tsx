import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { TRANSFORM_MESSAGES as M, transformDraftSchema } from "@contract/transforms";
import { BackLink } from "~/components/ui/back-link";
import { TransformSteps } from "~/components/transform-steps";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { validateDraft } from "~/services/transforms.server";
import { readDraft, saveDraft, takeNotice } from "~/services/transform-draft.server";
import { FirstStepForm } from "./first-step-form";
import { loadPage, readValues, type AddPage } from "./page.server";

export const meta: MetaFunction = () => [{ title: "Create Transform · Tributary" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const [draft, { notice, setCookie }] = await Promise.all([readDraft(request), takeNotice(request)]);
  // The no-JS "Continue with this connector" is a GET of the whole form: its values come first, then the draft's.
  const params = new URL(request.url).searchParams;
  const fromChoice = params.has("connector_id");
  const page = await loadPage(request, fromChoice ? readValues(params) : readValues(draft), { fromChoice });
  return data({ ...page, notice }, setCookie ? { headers: { "set-cookie": setCookie } } : undefined);
}

/** A refused post answers the page's data with the values posted, and conform's reply. */
type ActionData = AddPage & { result: SubmissionResult<string[]> };

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: transformDraftSchema });
  const refuse = async (result: SubmissionResult<string[]>) =>
    data({ ...(await loadPage(request, readValues(formData), { fromChoice: false })), result } satisfies ActionData, { status: 400 });
  if (submission.status !== "success") return refuse(submission.reply());
  const draft = submission.value;
  const checked = await validateDraft(request, draft);
  if (!checked.ok) {
    if (checked.message === M.nameTaken) return refuse(submission.reply({ fieldErrors: { name: [M.nameTaken] } }));
    if (checked.message === M.connectorNotFound) return refuse(submission.reply({ fieldErrors: { connector_id: [M.connectorNotFound] } }));
    return refuse(submission.reply({ formErrors: [checked.status >= 500 ? M.loadFailed : checked.message] }));
  }
  const previous = await readDraft(request);
  // Same connector: keep the template and permission progress; another connector starts the setup again.
  const keep = previous && previous.connector_id === draft.connector_id;
  const cookie = await saveDraft(request, {
    name: draft.name,
    description: draft.description,
    connector_id: draft.connector_id,
    frequency: draft.frequency,
    file_type: draft.file_type,
    template_id: keep ? previous.template_id : undefined,
    steps_done: keep ? previous.steps_done : 0,
    requirement_inputs: keep ? previous.requirement_inputs : {},
    permissions_setup: keep ? previous.permissions_setup : false,
  });
  const next = keep && previous.template_id ? `/transforms/templates/select?template=${encodeURIComponent(previous.template_id)}` : "/transforms/templates/select";
  return redirect(next, { headers: { "set-cookie": cookie } });
}

export default function CreateTransform() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const page = actionData ?? loaded;
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to="/transforms">Transforms</BackLink>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Create Transform</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Pick the connector whose meetings to analyse, then choose a template for the analysis.</p>
      <TransformSteps current={1} />
      {loaded.notice ? (
        <p role="status" className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {loaded.notice}
        </p>
      ) : null}
      <FirstStepForm page={page} lastResult={actionData?.result ?? null} />
    </div>
  );
}
