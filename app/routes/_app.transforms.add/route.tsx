import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import {
  DEFAULT_FILE_TYPE,
  DEFAULT_TRANSFORM_FREQUENCY,
  TRANSFORM_FILE_TYPES,
  TRANSFORM_FREQUENCIES,
  TRANSFORM_MESSAGES as M,
  transformDraftSchema,
} from "@contract/transforms";
import { ErrorBlock } from "~/components/ui/error-block";
import { FormBanner } from "~/components/ui/form-banner";
import { useHydrated } from "remix-utils/use-hydrated";
import { BackLink } from "~/components/ui/back-link";
import { fieldClasses } from "~/components/ui/field";
import { TransformSteps } from "~/components/transform-steps";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { loadTransformConfig, validateDraft } from "~/services/transforms.server";
import { readDraft, saveDraft, takeNotice } from "~/services/transform-draft.server";

export const meta: MetaFunction = () => [{ title: "Create Transform · Tributary" }];

interface Values {
  name: string;
  description: string;
  connector_id: string;
  frequency: string;
  file_type: string;
  workflow: string;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const [config, draft, { notice, setCookie }] = await Promise.all([loadTransformConfig(request), readDraft(request), takeNotice(request)]);
  const values: Values = draft
    ? {
        name: draft.name,
        description: draft.description,
        connector_id: draft.connector_id,
        frequency: draft.frequency,
        file_type: draft.file_type,
        workflow: "template",
      }
    : {
        name: "",
        description: "",
        connector_id: "",
        frequency: DEFAULT_TRANSFORM_FREQUENCY,
        file_type: DEFAULT_FILE_TYPE,
        workflow: "",
      };
  const body = {
    values,
    connectors: config.ok ? config.data.connectors : [],
    fileTypes: config.ok && config.data.file_types.length ? config.data.file_types : [...TRANSFORM_FILE_TYPES],
    loadError: config.ok ? null : M.loadFailed,
    notice,
    errors: [] as string[],
  };
  return data(body, setCookie ? { headers: { "set-cookie": setCookie } } : undefined);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readForm(request);
  const field = (key: string) => {
    const v = form.get(key);
    return typeof v === "string" ? v : "";
  };
  const values: Values = {
    name: field("name"),
    description: field("description"),
    connector_id: field("connector_id"),
    frequency: field("frequency"),
    file_type: field("file_type"),
    workflow: field("workflow"),
  };
  const parsed = transformDraftSchema.safeParse(values);
  let errors: string[] = [];
  if (!parsed.success) {
    errors = [...new Set(parsed.error.issues.map((issue) => issue.message))];
  } else {
    const checked = await validateDraft(request, parsed.data);
    if (!checked.ok) errors = [checked.status >= 500 ? M.loadFailed : checked.message];
  }
  if (!parsed.success || errors.length) {
    const config = await loadTransformConfig(request);
    return data(
      {
        values,
        connectors: config.ok ? config.data.connectors : [],
        fileTypes: config.ok && config.data.file_types.length ? config.data.file_types : [...TRANSFORM_FILE_TYPES],
        loadError: config.ok ? null : M.loadFailed,
        notice: null,
        errors,
      },
      { status: 400 }
    );
  }
  const previous = await readDraft(request);
  const draft = parsed.data;
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
  const next =
    keep && previous.template_id ? `/transforms/templates/select?template=${encodeURIComponent(previous.template_id)}` : "/transforms/templates/select";
  return redirect(next, { headers: { "set-cookie": cookie } });
}

const FREQUENCY_LABEL: Record<string, string> = {
  daily: "Daily",
  hourly: "Hourly",
};

export default function CreateTransform() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const page = actionData ?? loaded;
  const v = page.values;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const read = () => {
    const f = formRef.current ? new FormData(formRef.current) : null;
    return {
      connector: String(f?.get("connector_id") ?? v.connector_id),
      workflow: String(f?.get("workflow") ?? v.workflow),
      fileType: String(f?.get("file_type") ?? v.file_type),
    };
  };
  const [filled, setFilled] = useState(() => ({
    connector: v.connector_id,
    workflow: v.workflow,
    fileType: v.file_type,
  }));
  // §5: Continue is disabled without a connector, a workflow or a file type (the server checks it all again).
  const ready = !!filled.connector && !!filled.workflow && !!filled.fileType;
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to="/transforms">Transforms</BackLink>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Create Transform</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Pick the connector whose meetings to analyse, then choose a template for the analysis.</p>
      <TransformSteps current={1} />
      {page.notice ? (
        <p role="status" className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {page.notice}
        </p>
      ) : null}
      {page.loadError ? <ErrorBlock message={page.loadError} /> : null}
      <FormBanner errors={page.errors} />
      {page.loadError ? null : (
        <Form
          ref={formRef}
          method="post"
          action="/transforms/add"
          className="card space-y-6 p-6"
          noValidate
          key={actionData ? JSON.stringify(actionData.values) : "loaded"}
          onChange={() => setFilled(read())}
        >
          <div>
            <label htmlFor="name" className={fieldClasses.label}>
              Transform name
            </label>
            <input
              id="name"
              name="name"
              type="text"
              defaultValue={v.name}
              className={fieldClasses.input}
              autoComplete="off"
              placeholder="e.g. Weekly customer topics"
            />
          </div>
          <div>
            <label htmlFor="description" className={fieldClasses.label}>
              Description <span className="font-normal text-slate-500">(optional)</span>
            </label>
            <textarea id="description" name="description" rows={3} defaultValue={v.description} className={fieldClasses.input} />
          </div>
          <div>
            <label htmlFor="connector_id" className={fieldClasses.label}>
              Connector
            </label>
            <select id="connector_id" name="connector_id" defaultValue={v.connector_id} className={fieldClasses.input}>
              <option value="">Select a connector</option>
              {page.connectors.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            {page.connectors.length === 0 && !page.loadError ? (
              <p className="mt-1 text-xs text-slate-600">
                You have no connectors yet.{" "}
                <a href="/connectors/add" className="link">
                  Create a connector
                </a>{" "}
                first.
              </p>
            ) : null}
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            <div>
              <label htmlFor="frequency" className={fieldClasses.label}>
                Frequency
              </label>
              <select id="frequency" name="frequency" defaultValue={v.frequency} className={fieldClasses.input}>
                <option value="">Select a frequency</option>
                {TRANSFORM_FREQUENCIES.map((f) => (
                  <option key={f} value={f}>
                    {FREQUENCY_LABEL[f]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="file_type" className={fieldClasses.label}>
                File type
              </label>
              <select id="file_type" name="file_type" defaultValue={v.file_type} className={fieldClasses.input}>
                <option value="">Select a file type</option>
                {page.fileTypes.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <fieldset>
            <legend className={fieldClasses.label}>Workflow</legend>
            <div className="mt-2 grid gap-3 sm:grid-cols-2">
              {[
                {
                  value: "template",
                  title: "Use Templates",
                  body: "Start from a ready-made analysis pipeline and adjust its settings.",
                },
                {
                  value: "custom",
                  title: "Build Custom",
                  body: "Design your own pipeline step by step.",
                },
              ].map((option) => (
                <label
                  key={option.value}
                  className="flex cursor-pointer gap-3 rounded-lg border border-slate-200 p-4 hover:border-brand-300 has-checked:border-brand-500 has-checked:bg-brand-50"
                >
                  <input type="radio" name="workflow" value={option.value} defaultChecked={v.workflow === option.value} className="mt-0.5 h-4 w-4" />
                  <span>
                    <span className="block text-sm font-semibold text-slate-900">{option.title}</span>
                    <span className="mt-0.5 block text-sm text-slate-600">{option.body}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex items-center justify-end gap-3">
            <a href="/transforms" className="btn-secondary">
              Cancel
            </a>
            <button type="submit" className="btn-primary" disabled={busy || (hydrated && !ready)}>
              {busy ? "Checking..." : "Continue"}
            </button>
          </div>
        </Form>
      )}
    </div>
  );
}
