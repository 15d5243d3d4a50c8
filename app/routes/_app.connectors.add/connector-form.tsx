import { useMemo, useRef } from "react";
import { Form, useNavigation, useSubmit } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { CONNECTOR_MESSAGES as M, FREQUENCIES } from "@contract/connectors";
import { platformLabel } from "@contract/labels";
import { controlClasses, controlProps, DescriptionField, DestinationChoices, firstError, LookbackField, NameField, SourceOptions } from "~/components/connector-fields";
import { useChoiceSelect } from "~/components/ui/choice-select";
import { ContinueButton } from "~/components/ui/continue-button";
import { Field } from "~/components/ui/field";
import { FormBanner } from "~/components/ui/form-banner";
import { cascadeRules, createFormSchema, type PageData } from "./schema";

/** The form's rules before the cascade has loaded anything for its choices: the fields' own rules only. */
const UNLOADED_SCHEMA = createFormSchema({ platforms: null, destinations: null, requiredCategories: [] });

/** The form's current source and platform are the ones the page's data was loaded for. */
const loadedFor = (formData: FormData, loaded: { source: string; platform: string }) =>
  (formData.get("source") ?? "") === loaded.source && (formData.get("platform") ?? "") === loaded.platform;

/**
 * The Create Connector form (spec §4, §5). Choosing a source or a platform reloads the page's data with the form's
 * values in the address (a GET): with JavaScript at once, without it by the choice's Continue button. The form
 * itself is never remounted by that, so the select just changed keeps the keyboard focus; only the parts the
 * choice replaces are (the platform select when the source changes, the destination ticks when either does).
 * Errors show in the banner and under their field, checked in the browser on submit and again by the server.
 */
export function ConnectorCreateForm({ data, lastResult }: { data: PageData; lastResult: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const schema = useMemo(() => createFormSchema(cascadeRules(data)), [data]);
  const [form, fields] = useForm({
    id: "connector-create",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    // The page's rules are those of the source and platform it loaded. A submit right after another choice (its
    // load still on the way) is checked without them: the server runs the cascade for the values posted, so the
    // answer is about the choice on screen, never the last one's rules.
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loadedFor(formData, data.values) ? schema : UNLOADED_SCHEMA }),
  });
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const v = data.values;
  const errors = {
    name: firstError(fields.name.errors),
    description: firstError(fields.description.errors),
    source: firstError(fields.source.errors),
    platform: firstError(fields.platform.errors),
    destination_ids: firstError(fields.destination_ids.errors),
    frequency: firstError(fields.frequency.errors),
    lookback_days: firstError(fields.lookback_days.errors),
  };
  const banner = [...new Set([...data.loadErrors, ...(form.errors ?? []), ...Object.values(form.allErrors).flat()])];
  const cascadeNow = () => {
    if (formRef.current) submit(formRef.current, { method: "get", action: "/connectors/add", replace: true, preventScrollReset: true });
  };
  const sourceSelect = useChoiceSelect(v.source, cascadeNow);
  const platformSelect = useChoiceSelect(v.platform, cascadeNow);
  return (
    <>
      <FormBanner errors={banner} />
      <Form ref={formRef} method="post" action="/connectors/add" {...getFormProps(form)} className="card space-y-5 p-6">
        <input type="hidden" name="prev_source" value={v.source} />
        <input type="hidden" name="prev_platform" value={v.platform} />
        <NameField defaultValue={v.name} error={errors.name} />
        <DescriptionField defaultValue={v.description} error={errors.description} />
        <Field idPrefix="connector" name="source" label="Source" error={errors.source}>
          <div className="flex gap-2">
            <select ref={sourceSelect} {...controlProps("source", errors.source)} defaultValue={v.source} className={controlClasses} onChange={cascadeNow}>
              <SourceOptions sources={data.sources} />
            </select>
            <ContinueButton what="source" className="btn-secondary mt-1" />
          </div>
        </Field>
        {data.platforms !== null && data.platforms.length === 0 ? <p className="text-sm text-slate-600">{M.noPlatforms}</p> : null}
        {data.platforms?.length ? (
          <Field idPrefix="connector" name="platform" label="Platform" error={errors.platform}>
            <div className="flex gap-2">
              {/* A new source brings new platforms: only then is the select drawn afresh. */}
              <select key={v.source} ref={platformSelect} {...controlProps("platform", errors.platform)} defaultValue={v.platform} className={controlClasses} onChange={cascadeNow}>
                <option value="">Select a platform</option>
                {data.platforms.map((p) => (
                  <option key={p} value={p}>
                    {platformLabel(p)}
                  </option>
                ))}
              </select>
              <ContinueButton what="platform" className="btn-secondary mt-1" />
            </div>
          </Field>
        ) : null}
        {data.destinations ? (
          <DestinationChoices key={`${v.source}|${v.platform}`} destinations={data.destinations} checked={v.destination_ids} error={errors.destination_ids} empty={M.noDestinations} />
        ) : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <Field idPrefix="connector" name="frequency" label="Frequency" error={errors.frequency}>
            <select {...controlProps("frequency", errors.frequency)} defaultValue={v.frequency} className={controlClasses}>
              <option value="">Select a frequency</option>
              {FREQUENCIES.map((f) => (
                <option key={f} value={f}>
                  {f === "daily" ? "Daily" : "Hourly"}
                </option>
              ))}
            </select>
          </Field>
          <LookbackField options={data.lookbackOptions} defaultValue={v.lookback_days} error={errors.lookback_days} />
        </div>
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Creating..." : "Create Connector"}
          </button>
        </div>
      </Form>
    </>
  );
}
