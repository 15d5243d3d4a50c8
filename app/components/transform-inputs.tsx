import { Link } from "@remix-run/react";
import { INPUT_GROUP_ORDER, optionLabel, TRANSFORM_FILE_TYPES, transformTypeLabel, type PreviewResponse, type TemplateInput } from "@contract/transforms";
import { INPUT_MESSAGES, inputWords } from "@contract/transform-forms";
import { plainWords } from "@contract/labels";
import { fieldClasses } from "~/components/ui/field";
import { controlClasses } from "./transform-fields";
import { TableHead } from "./table-head";
import { TransformSample } from "./transform-sample";

/** An input's label: its own, or its key in words ("max_topics" → "Max topics"). */
export function inputLabel(key: string, input: TemplateInput): string {
  return input.label ?? inputWords(key);
}

/** Visible inputs by group, in the spec's order (§9): general, primitives, signals, outcome, then the others as they come. */
export function groupInputs(inputs: Record<string, TemplateInput>): { group: string; entries: [string, TemplateInput][] }[] {
  const groups = new Map<string, [string, TemplateInput][]>();
  for (const [key, input] of Object.entries(inputs)) {
    if (input.hidden) continue;
    const group = input.group || "general";
    groups.set(group, [...(groups.get(group) ?? []), [key, input]]);
  }
  const known = INPUT_GROUP_ORDER.filter((g) => groups.has(g));
  const others = [...groups.keys()].filter((g) => !(INPUT_GROUP_ORDER as readonly string[]).includes(g));
  return [...known, ...others].map((group) => ({ group, entries: groups.get(group)! }));
}

const GROUP_TITLE: Record<string, string> = { general: "General", primitives: "Primitives", signals: "Signals", outcome: "Outcome" };
const GROUP_HINT: Record<string, string> = {
  general: "What the transform works on.",
  primitives: "How each transcript or message is read: the models that extract topics, sentiment and entities.",
  signals: "How the extracted facts are combined across meetings or e-mail threads.",
  outcome: "The model that turns the signals into the result.",
};

/** The text a form shows for a value (a list as "a, b", nothing as ""). */
export function displayValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

export const inputName = (key: string) => `in.${key}`;

/**
 * The template's inputs as form fields by type (string, integer with min/max, boolean, enum, comma-separated list),
 * each with its error under it (marked invalid and described by it).
 */
export function TemplateInputFields({ inputs, values, errors = {} }: { inputs: Record<string, TemplateInput>; values: Record<string, string>; errors?: Record<string, string | undefined> }) {
  const groups = groupInputs(inputs);
  if (groups.length === 0) return <p className="text-sm text-slate-600">This template has no settings to adjust.</p>;
  return (
    <div className="space-y-8">
      {groups.map(({ group, entries }) => (
        <fieldset key={group} className="border-t border-slate-100 pt-6 first:border-t-0 first:pt-0" data-group={group}>
          <legend className="float-left mb-4 w-full">
            <span className="block text-base font-semibold text-slate-900">
              {GROUP_TITLE[group] ?? inputLabel(group, { type: "string", required: false, description: "" })}
            </span>
            {GROUP_HINT[group] ? <span className="mt-0.5 block text-sm text-slate-600">{GROUP_HINT[group]}</span> : null}
          </legend>
          <div className="clear-both grid gap-5 sm:grid-cols-2">
            {entries.map(([key, input]) => {
              const id = `input-${key}`;
              const name = inputName(key);
              const label = inputLabel(key, input);
              const value = values[key] ?? displayValue(input.default);
              const hintId = `${id}-hint`;
              const hint = [
                input.description,
                input.type === "integer" &&
                (input.min !== undefined || input.max !== undefined) &&
                !(input.description.includes(String(input.min)) && input.description.includes(String(input.max)))
                  ? input.min !== undefined && input.max !== undefined
                    ? `From ${input.min} to ${input.max}.`
                    : input.min !== undefined
                    ? `At least ${input.min}.`
                    : `At most ${input.max}.`
                  : "",
                input.type === "list[string]" ? "Separate items with commas." : "",
              ]
                .filter(Boolean)
                .join(" ");
              const error = errors[key];
              const errorId = `${id}-error`;
              const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
              const errorText = error ? (
                <p id={errorId} className="mt-1 text-sm text-red-700">
                  {error}
                </p>
              ) : null;
              if (input.type === "boolean") {
                return (
                  <div key={key} className="sm:col-span-2">
                    <label className="flex items-start gap-3 text-sm text-slate-800">
                      <input
                        id={id}
                        type="checkbox"
                        name={name}
                        value="true"
                        defaultChecked={value === "true"}
                        className="mt-0.5 h-4 w-4 rounded border-slate-300"
                        aria-describedby={describedBy}
                        aria-invalid={error ? true : undefined}
                      />
                      <span>
                        <span className="font-medium">{label}</span>
                        {hint ? (
                          <span id={hintId} className="mt-0.5 block text-xs text-slate-600">
                            {hint}
                          </span>
                        ) : null}
                      </span>
                    </label>
                    {errorText}
                  </div>
                );
              }
              return (
                <div key={key} className={input.type === "list[string]" || input.type === "string" ? "sm:col-span-2" : ""}>
                  <label htmlFor={id} className={fieldClasses.label}>
                    {label}
                    {input.required ? null : <span className="font-normal text-slate-500"> (optional)</span>}
                  </label>
                  {input.type === "enum" ? (
                    <select id={id} name={name} defaultValue={value} className={controlClasses} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
                      {input.required && value ? null : <option value="">Select…</option>}
                      {(input.enum ?? []).map((o) => (
                        <option key={o} value={o}>
                          {optionLabel(o)}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={id}
                      name={name}
                      type={input.type === "integer" ? "number" : "text"}
                      inputMode={input.type === "integer" ? "numeric" : undefined}
                      step={input.type === "integer" ? 1 : undefined}
                      min={input.type === "integer" ? input.min : undefined}
                      max={input.type === "integer" ? input.max : undefined}
                      defaultValue={value}
                      className={controlClasses}
                      autoComplete="off"
                      aria-describedby={describedBy}
                      aria-invalid={error ? true : undefined}
                    />
                  )}
                  {hint ? (
                    <p id={hintId} className="mt-1 text-xs text-slate-600">
                      {hint}
                    </p>
                  ) : null}
                  {errorText}
                </div>
              );
            })}
          </div>
        </fieldset>
      ))}
    </div>
  );
}

/**
 * Why a preview found no records, and what to choose instead: the file type is not in the connector's data (another
 * one has records, or would once synced), or the connector has synced nothing of it yet. Null when it found some.
 */
export function noRecordsReason(preview: PreviewResponse, fileType: string): { text: string; changeFileType: boolean } | null {
  if (preview.record_count > 0) return null;
  const counts = preview.record_counts ?? {};
  const withRecords = TRANSFORM_FILE_TYPES.filter((t) => (counts[t] ?? 0) > 0);
  if (withRecords.length) return { text: INPUT_MESSAGES.previewOtherTypes(fileType, Math.max(...withRecords.map((t) => counts[t]!)), withRecords), changeFileType: true };
  const available = preview.connector_file_types ?? [];
  if (available.length && !available.includes(fileType)) return { text: INPUT_MESSAGES.previewWrongType(fileType, available), changeFileType: true };
  return { text: INPUT_MESSAGES.previewNotSynced(fileType), changeFileType: false };
}

/**
 * The preview of spec §3: the pipeline's primitives (provider, model), signal aggregations, outcome model type, and
 * the record count; a count of none says why and what to do, with a link to where it is done; then a sample of the
 * result rows the template gives on the first records.
 */
export function TransformPreview({ preview, fileType, connectorId }: { preview: PreviewResponse; fileType: string; connectorId: string }) {
  const p = preview.template_config.pipeline;
  const reason = noRecordsReason(preview, fileType);
  return (
    <section className="card p-6" aria-labelledby="preview-title" data-testid="transform-preview">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="preview-title" className="text-lg font-semibold text-slate-900">
            Preview
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {/* "Topic modeling · Topic Modeling" says one thing twice: the type only when the name does not say it. */}
            {preview.template_name.toLowerCase() === transformTypeLabel(preview.transform_type).toLowerCase()
              ? transformTypeLabel(preview.transform_type)
              : `${preview.template_name} · ${transformTypeLabel(preview.transform_type)}`}
          </p>
        </div>
        <p className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
          <span className="text-lg font-bold tabular-nums" data-testid="record-count">
            {preview.record_count.toLocaleString("en-US")}
          </span>{" "}
          {preview.record_count === 1 ? "record" : "records"} to analyse
        </p>
      </div>
      {reason ? (
        <div role="status" data-testid="no-records" className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p>{reason.text}</p>
          <p className="mt-2">
            {reason.changeFileType ? (
              <Link to="/transforms/add" className="link font-medium">
                Change the file type
              </Link>
            ) : (
              <Link to={`/connectors/details/${connectorId}`} className="link font-medium">
                Open the connector
              </Link>
            )}
          </p>
        </div>
      ) : null}
      <div className="mt-5 grid gap-6 md:grid-cols-3">
        <div className="min-w-0 md:col-span-2">
          <h3 className="mb-2 text-sm font-semibold text-slate-900">Primitives</h3>
          <div className="overflow-x-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label="Pipeline primitives">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <TableHead cell="px-3 py-2" labels={["Name", "Type", "Provider", "Model"]} />
              <tbody className="divide-y divide-slate-100">
                {p.primitives.map((primitive) => (
                  <tr key={primitive.name}>
                    <td className="px-3 py-2 font-medium text-slate-900">{plainWords(primitive.name)}</td>
                    <td className="px-3 py-2 text-slate-700">{plainWords(primitive.type)}</td>
                    <td className="px-3 py-2 text-slate-700">{optionLabel(primitive.parameters.provider)}</td>
                    <td className="px-3 py-2 font-mono text-xs text-slate-700">{primitive.parameters.model}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <div className="min-w-0 space-y-5">
          <div>
            <h3 className="mb-2 text-sm font-semibold text-slate-900">Signals</h3>
            <ul className="space-y-1 text-sm text-slate-700">
              {p.signals.aggregations.map((a) => (
                <li key={a.name}>
                  {plainWords(a.name)} <span className="text-slate-500">({plainWords(a.function).toLowerCase()})</span>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className="mb-2 text-sm font-semibold text-slate-900">Outcome</h3>
            <p className="text-sm text-slate-700">
              Model type: <span className="font-medium">{plainWords(p.outcome.model_type)}</span>
            </p>
          </div>
        </div>
      </div>
      {preview.sample?.length && preview.sample_records ? <TransformSample tables={preview.sample} records={preview.sample_records} /> : null}
    </section>
  );
}
