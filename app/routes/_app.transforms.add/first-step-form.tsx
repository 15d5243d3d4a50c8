import { useRef, useState } from "react";
import { Form, useNavigation } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useHydrated } from "remix-utils/use-hydrated";
import { TRANSFORM_FREQUENCIES, transformDraftSchema } from "@contract/transforms";
import { INPUT_MESSAGES, preferredFileType } from "@contract/transform-forms";
import { ContinueButton } from "~/components/ui/continue-button";
import { ErrorBlock } from "~/components/ui/error-block";
import { Field, fieldClasses } from "~/components/ui/field";
import { FormBanner } from "~/components/ui/form-banner";
import { bannerErrors, controlClasses, controlProps, firstError } from "~/components/transform-fields";
import type { AddPage } from "./page.server";

const FREQUENCY_LABEL: Record<string, string> = { daily: "Daily", hourly: "Hourly" };
const WORKFLOWS = [
  { value: "template", title: "Use Templates", body: "Start from a ready-made analysis pipeline and adjust its settings." },
  { value: "custom", title: "Build Custom", body: "Design your own pipeline step by step." },
];
const P = "transform";

/**
 * The first screen of the transform wizard (spec §5): name, description, connector, frequency, file type and
 * workflow. Beside the file type it says which files the chosen connector's data comes as, and choosing a connector
 * picks a file type its data has (with JavaScript at once; without it, by the connector's Continue button, a GET
 * that draws the page again). Errors show in the banner and under their field, checked in the browser on submit
 * and again by the server.
 */
export function FirstStepForm({ page, lastResult }: { page: AddPage; lastResult: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useForm({
    id: "transform-add",
    lastResult,
    constraint: getZodConstraint(transformDraftSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: transformDraftSchema }),
  });
  const v = page.values;
  const [connectorId, setConnectorId] = useState(v.connector_id);
  const [fileType, setFileType] = useState(v.file_type);
  const [workflow, setWorkflow] = useState(v.workflow);
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const connector = page.connectors.find((c) => c.id === connectorId);
  const available = connector?.file_types ?? [];
  const chooseConnector = (id: string) => {
    setConnectorId(id);
    const types = page.connectors.find((c) => c.id === id)?.file_types ?? [];
    if (types.length && !types.includes(fileType)) setFileType(preferredFileType(types));
  };
  const errors = {
    name: firstError(fields.name.errors),
    description: firstError(fields.description.errors),
    connector_id: firstError(fields.connector_id.errors),
    frequency: firstError(fields.frequency.errors),
    file_type: firstError(fields.file_type.errors),
    workflow: firstError(fields.workflow.errors),
  };
  // §5: Continue is disabled without a connector, a workflow or a file type (the server checks it all again).
  const ready = !!connectorId && !!workflow && !!fileType;
  const missing = connector && available.length && fileType && !available.includes(fileType);
  if (page.loadError) return <ErrorBlock message={page.loadError} />;
  return (
    <>
      <FormBanner errors={bannerErrors([], form.errors, form.allErrors)} />
      <Form ref={formRef} method="post" action="/transforms/add" {...getFormProps(form)} className="card space-y-6 p-6">
        <Field idPrefix={P} name="name" label="Transform name" defaultValue={v.name} error={errors.name} placeholder="e.g. Weekly customer topics" />
        <Field idPrefix={P} name="description" label="Description (optional)" error={errors.description}>
          <textarea {...controlProps(P, "description", errors.description)} rows={3} defaultValue={v.description} className={controlClasses} />
        </Field>
        <Field
          idPrefix={P}
          name="connector_id"
          label="Connector"
          error={errors.connector_id}
          hint={
            page.connectors.length === 0 ? (
              <>
                You have no connectors yet.{" "}
                <a href="/connectors/add" className="link">
                  Create a connector
                </a>{" "}
                first.
              </>
            ) : undefined
          }
        >
          <div className="flex gap-2">
            <select
              {...controlProps(P, "connector_id", errors.connector_id, page.connectors.length === 0)}
              value={connectorId}
              onChange={(event) => chooseConnector(event.currentTarget.value)}
              className={controlClasses}
            >
              <option value="">Select a connector</option>
              {page.connectors.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            <ContinueButton what="connector" className="btn-secondary mt-1" />
          </div>
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field idPrefix={P} name="frequency" label="Frequency" error={errors.frequency}>
            <select {...controlProps(P, "frequency", errors.frequency)} defaultValue={v.frequency} className={controlClasses}>
              <option value="">Select a frequency</option>
              {TRANSFORM_FREQUENCIES.map((f) => (
                <option key={f} value={f}>
                  {FREQUENCY_LABEL[f]}
                </option>
              ))}
            </select>
          </Field>
          <Field
            idPrefix={P}
            name="file_type"
            label="File type"
            error={errors.file_type}
            hint={
              connector && available.length ? (
                <span data-testid="file-types-hint">
                  {INPUT_MESSAGES.dataHas(available)}
                  {connector.synced ? null : ` ${INPUT_MESSAGES.notSynced}`}
                  {missing ? <span className="mt-1 block font-medium text-amber-900">{INPUT_MESSAGES.typeMissing(fileType, available)}</span> : null}
                </span>
              ) : undefined
            }
          >
            <select
              {...controlProps(P, "file_type", errors.file_type, !!(connector && available.length))}
              value={fileType}
              onChange={(event) => setFileType(event.currentTarget.value)}
              className={controlClasses}
            >
              <option value="">Select a file type</option>
              {page.fileTypes.map((t) => (
                <option key={t} value={t}>
                  {connector && available.length && !available.includes(t) ? `${t} (not in this connector's data)` : t}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <fieldset aria-describedby={errors.workflow ? `${P}-workflow-error` : undefined}>
          <legend className={fieldClasses.label}>Workflow</legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {WORKFLOWS.map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer gap-3 rounded-lg border border-slate-200 p-4 hover:border-brand-300 has-checked:border-brand-500 has-checked:bg-brand-50"
              >
                <input
                  type="radio"
                  name="workflow"
                  value={option.value}
                  defaultChecked={v.workflow === option.value}
                  onChange={() => setWorkflow(option.value)}
                  aria-invalid={errors.workflow ? true : undefined}
                  className="mt-0.5 h-4 w-4"
                />
                <span>
                  <span className="block text-sm font-semibold text-slate-900">{option.title}</span>
                  <span className="mt-0.5 block text-sm text-slate-600">{option.body}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.workflow ? (
            <p id={`${P}-workflow-error`} className="mt-1 text-sm text-red-700">
              {errors.workflow}
            </p>
          ) : null}
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
    </>
  );
}
