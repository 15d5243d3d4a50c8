import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { z } from "zod";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { optionLabel, TRANSFORM_MESSAGES as M, type SetupStep } from "@contract/transforms";
import { requirementInputsSchema } from "@contract/transform-forms";
import { DestinationForm } from "~/components/destination-form";
import { ErrorBlock } from "~/components/ui/error-block";
import { FormBanner } from "~/components/ui/form-banner";
import { BackLink } from "~/components/ui/back-link";
import { Field } from "~/components/ui/field";
import { bannerErrors, controlClasses, controlProps, firstError } from "~/components/transform-fields";
import { SqlBlock, TransformGrants } from "~/components/transform-grants";
import { TransformSteps } from "~/components/transform-steps";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { loadGrantInstructions, loadSetupSteps, loadTemplate, type GrantInstructions, type WizardDestination } from "~/services/transforms.server";
import { requireDraft, saveDraft, takeNotice, type WizardDraft } from "~/services/transform-draft.server";

export const meta: MetaFunction = () => [{ title: "Permissions Setup · Tributary" }];

const PATH = "/transforms/templates/permissions";

/** Which step to show: the one asked for, but never past the first step not yet completed. */
function stepNumber(asked: string | null, draft: WizardDraft, total: number): number {
  const reachable = Math.min(draft.steps_done + 1, total);
  const n = asked && /^\d{1,3}$/.test(asked) ? Number(asked) : reachable;
  return Math.max(1, Math.min(n, reachable));
}

/** Steps that show the destination, and steps that ask for grants on it. */
const showsDestination = (step: SetupStep) => step.type === "destination_setup";
const asksGrants = (step: SetupStep) => step.type === "permission_setup" || step.type === "permissions_review" || step.permission === "dataset_query_access";

async function loadPage(request: Request, draft: WizardDraft & { template_id: string }, asked: string | null) {
  const [steps, template] = await Promise.all([
    loadSetupSteps(request, draft.template_id, draft.connector_id),
    loadTemplate(request, draft.template_id, draft.connector_id),
  ]);
  if (!steps.ok || !template.ok) {
    const message = !template.ok && template.status === 404 ? M.templateNotFound : M.loadTemplateFailed;
    return {
      fatal: message,
      steps: [] as SetupStep[],
      current: 1,
      templateName: "",
      templateId: draft.template_id,
      destination: null,
      grants: null,
      values: draft.requirement_inputs,
      done: draft.steps_done,
    };
  }
  const current = stepNumber(asked, draft, steps.data.length);
  const step = steps.data[current - 1]!;
  const destination: WizardDestination | null = template.data.destination ?? null;
  let grants: GrantInstructions | null = null;
  if (destination && asksGrants(step)) grants = await loadGrantInstructions(request, destination, step);
  return {
    fatal: null as string | null,
    steps: steps.data,
    current,
    templateName: template.data.name,
    templateId: template.data.id,
    destination,
    grants,
    values: draft.requirement_inputs,
    done: draft.steps_done,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const draft = (await requireDraft(request, { template: true })) as WizardDraft & { template_id: string };
  const [page, { notice, setCookie }] = await Promise.all([loadPage(request, draft, new URL(request.url).searchParams.get("step")), takeNotice(request)]);
  return data({ ...page, notice }, setCookie ? { headers: { "set-cookie": setCookie } } : undefined);
}

/** A permission step's form: which step it answers, and the step's requirement inputs (`req.<key>`). */
const stepSchema = (step: SetupStep) => z.object({ step: z.string(), req: requirementInputsSchema(step.requirement_inputs).default({}) });

type ActionData = Awaited<ReturnType<typeof loadPage>> & { notice: null; result: SubmissionResult<string[]> | null };

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const formData = await readForm(request);
  const draft = (await requireDraft(request, { template: true })) as WizardDraft & { template_id: string };
  const asked = String(formData.get("step") ?? "");
  const page = await loadPage(request, draft, asked);
  if (page.fatal) return data({ ...page, notice: null, result: null } satisfies ActionData, { status: page.fatal === M.templateNotFound ? 404 : 502 });
  if (String(page.current) !== asked) return redirect(`${PATH}?step=${page.current}`);
  const step = page.steps[page.current - 1]!;
  const typed = Object.fromEntries(step.requirement_inputs.map((input) => [input.key, String(formData.get(`req.${input.key}`) ?? "")]));
  const submission = parseWithZod(formData, { schema: stepSchema(step) });
  if (submission.status !== "success") return data({ ...page, values: { ...page.values, ...typed }, notice: null, result: submission.reply() } satisfies ActionData, { status: 400 });
  const values: Record<string, string> = { ...draft.requirement_inputs, ...submission.value.req };
  const last = page.current === page.steps.length;
  const cookie = await saveDraft(request, {
    ...draft,
    requirement_inputs: values,
    steps_done: Math.max(draft.steps_done, page.current),
    permissions_setup: draft.permissions_setup || last,
  });
  const next = last ? `/transforms/templates/config/${encodeURIComponent(draft.template_id)}` : `${PATH}?step=${page.current + 1}`;
  return redirect(next, { headers: { "set-cookie": cookie } });
}

/** A step's text; a fenced block in it (```sql … ```) is shown as code with a copy button. */
function StepText({ text }: { text: string }) {
  const parts = text.split(/```[a-zA-Z]*\n?([\s\S]*?)```/);
  return (
    <div className="mt-1 space-y-2">
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <SqlBlock key={i} sql={part.trim()} label="Step SQL" />
        ) : part.trim() ? (
          <p key={i} className="text-sm whitespace-pre-line text-slate-600">
            {part.trim()}
          </p>
        ) : null
      )}
    </div>
  );
}

/** The destination's stored settings that read as text (numbers too: a port), for its read-only form. */
function settingsText(config: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(config)
      .filter(([, v]) => typeof v === "string" || typeof v === "number")
      .map(([k, v]) => [k, String(v)]),
  );
}

function DestinationPanel({ destination }: { destination: WizardDestination }) {
  return (
    <div className="space-y-3" data-testid="wizard-destination">
      <div>
        <h2 className="text-base font-semibold text-slate-900">Destination</h2>
        <p className="mt-0.5 text-sm text-slate-600">The transform reads the connector&apos;s data from this destination and writes its results next to it.</p>
      </div>
      <DestinationForm
        mode="create"
        readOnly
        integrations={[{ name: destination.integration_name, label: destination.integration_label ?? destination.integration_name }]}
        integration={destination.integration_name}
        defaults={{
          ...settingsText(destination.config),
          name: destination.name,
          description: "",
          permission_type: "dataset_query_access",
        }}
        serviceAccount={null}
        instructions={null}
        test={null}
        action={PATH}
      />
    </div>
  );
}

export default function PermissionsWizard() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const page = actionData ?? loaded;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const step = page.steps[page.current - 1];
  const last = page.current === page.steps.length;
  const schema = useMemo(() => (step ? stepSchema(step) : z.object({})), [step]);
  const [form] = useForm({
    id: `permissions-step-${page.current}`,
    lastResult: actionData?.result ?? null,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <div className="mx-auto max-w-5xl">
      <BackLink to="/transforms/templates/select">Template</BackLink>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Permissions Setup</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        {page.templateName ? (
          <>
            Give <strong className="font-semibold text-slate-800">{page.templateName}</strong> the access it needs, one step at a time.
          </>
        ) : (
          "Give the template the access it needs, one step at a time."
        )}
      </p>
      <TransformSteps current={3} />
      {page.notice ? (
        <p role="status" className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {page.notice}
        </p>
      ) : null}
      {page.fatal || !step ? (
        <ErrorBlock message={page.fatal ?? M.loadTemplateFailed} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-4">
          <nav aria-label="Setup steps" className="lg:col-span-1">
            <ol className="space-y-1">
              {page.steps.map((s, i) => {
                const n = i + 1;
                const reachable = n <= page.done + 1;
                const state = n === page.current ? "current" : n <= page.done ? "done" : "todo";
                const body = (
                  <>
                    <span
                      className={
                        "flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold " +
                        (state === "done"
                          ? "bg-green-600 text-white"
                          : state === "current"
                          ? "bg-brand-600 text-white"
                          : "border border-slate-300 text-slate-500")
                      }
                      aria-hidden="true"
                    >
                      {state === "done" ? "✓" : n}
                    </span>
                    <span className={state === "todo" ? "text-slate-500" : "text-slate-900"}>{s.title}</span>
                  </>
                );
                return (
                  <li key={s.step} aria-current={state === "current" ? "step" : undefined}>
                    {reachable && state !== "current" ? (
                      <Link to={`${PATH}?step=${n}`} className="flex items-center gap-3 rounded-lg px-3 py-2 text-sm hover:bg-slate-100">
                        {body}
                      </Link>
                    ) : (
                      <span
                        className={`flex items-center gap-3 rounded-lg px-3 py-2 text-sm ${
                          state === "current" ? "bg-white font-medium shadow-sm ring-1 ring-slate-200" : ""
                        }`}
                      >
                        {body}
                      </span>
                    )}
                  </li>
                );
              })}
            </ol>
          </nav>
          <div className="space-y-6 lg:col-span-3">
            <FormBanner errors={bannerErrors([], form.errors, form.allErrors)} />
            <section className="card space-y-5 p-6" aria-labelledby="step-title">
              <div>
                <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">
                  Step {page.current} of {page.steps.length}
                </p>
                <h2 id="step-title" className="mt-1 text-lg font-semibold text-slate-900">
                  {step.title}
                </h2>
                <StepText text={step.description} />
              </div>
              {asksGrants(step) && page.destination ? (
                <TransformGrants
                  integration={page.destination.integration_name}
                  serviceAccount={page.grants?.serviceAccount ?? null}
                  instructions={page.grants?.instructions ?? null}
                  error={page.grants?.error ?? null}
                />
              ) : null}
              {step.instructions?.length ? (
                <ol className="list-decimal space-y-1.5 pl-5 text-sm text-slate-700" aria-label="Instructions">
                  {step.instructions.map((line) => (
                    <li key={line} className="break-words">
                      {line}
                    </li>
                  ))}
                </ol>
              ) : null}
              {step.sql ? <SqlBlock sql={step.sql} label={`SQL for ${step.title}`} /> : null}
              {showsDestination(step) && !page.destination ? (
                <p className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
                  This connector has no destination a transform can read from. Add a BigQuery, Snowflake or local destination to the connector first.
                </p>
              ) : null}
            </section>
            {showsDestination(step) && page.destination ? <DestinationPanel destination={page.destination} /> : null}
            <Form method="post" action={PATH} {...getFormProps(form)} className="card space-y-5 p-6" key={page.current}>
              <input type="hidden" name="step" value={page.current} />
              {step.requirement_inputs.length ? (
                <div className="space-y-5">
                  {step.requirement_inputs.map((input) => {
                    const name = `req.${input.key}`;
                    const error = firstError(form.allErrors[name]);
                    const value = page.values[input.key] ?? input.default ?? "";
                    const control = controlProps("req", input.key, error, !!input.description);
                    return (
                      <Field
                        key={input.key}
                        idPrefix="req"
                        name={input.key}
                        label={input.required ? input.label : `${input.label} (optional)`}
                        hint={input.description}
                        error={error}
                      >
                        {input.type === "enum" ? (
                          <select {...control} name={name} defaultValue={value} className={controlClasses}>
                            <option value="">Select…</option>
                            {(input.enum ?? []).map((o) => (
                              <option key={o} value={o}>
                                {optionLabel(o)}
                              </option>
                            ))}
                          </select>
                        ) : (
                          <input {...control} name={name} type="text" defaultValue={value} placeholder={input.placeholder} className={controlClasses} autoComplete="off" />
                        )}
                      </Field>
                    );
                  })}
                </div>
              ) : (
                <p className="text-sm text-slate-600">
                  {last ? "When the access above is in place, continue to configure the template." : "When you have done this, continue to the next step."}
                </p>
              )}
              <div className="flex items-center justify-between gap-3">
                {page.current > 1 ? (
                  <Link to={`${PATH}?step=${page.current - 1}`} className="btn-secondary">
                    Back
                  </Link>
                ) : (
                  <Link to="/transforms/templates/select" className="btn-secondary">
                    Back
                  </Link>
                )}
                <button type="submit" className="btn-primary" disabled={busy}>
                  {busy ? "Saving..." : last ? "Continue to configuration" : "Next step"}
                </button>
              </div>
            </Form>
          </div>
        </div>
      )}
    </div>
  );
}
