import type { LookbackOption } from "@contract/connectors";
import type { Source } from "@contract/sources";
import { controlClasses, controlProps as kitControlProps, Field } from "~/components/ui/field";

/** The fields the create and update forms of a connector share; each control's id is `connector-<name>`. */

const ID_PREFIX = "connector";

/** The kit's `controlProps` under the connector forms' id prefix. */
export const controlProps = (name: string, error: string | undefined, hint = false) => kitControlProps(ID_PREFIX, name, error, hint);

export { controlClasses };

/** A field's first error, as conform reports them. */
export const firstError = (errors: string[] | undefined) => errors?.[0];

export function NameField({ defaultValue, error }: { defaultValue: string; error: string | undefined }) {
  return <Field idPrefix={ID_PREFIX} name="name" label="Connector name" defaultValue={defaultValue} error={error} />;
}

export function DescriptionField({ defaultValue, error }: { defaultValue: string; error: string | undefined }) {
  return (
    <Field idPrefix={ID_PREFIX} name="description" label="Description" error={error}>
      <textarea {...controlProps("description", error)} rows={3} defaultValue={defaultValue} className={controlClasses} />
    </Field>
  );
}

/** The source options: "Name (Integration)". */
export function SourceOptions({ sources }: { sources: readonly Source[] }) {
  return (
    <>
      <option value="">Select a source</option>
      {sources.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name} ({s.integration_label})
        </option>
      ))}
    </>
  );
}

export function LookbackField({ options, defaultValue, error }: { options: readonly LookbackOption[]; defaultValue: string; error: string | undefined }) {
  return (
    <Field idPrefix={ID_PREFIX} name="lookback_days" label="Lookback days" error={error}>
      <select {...controlProps("lookback_days", error)} defaultValue={defaultValue} className={controlClasses}>
        {options.map((o) => (
          <option key={o.value} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
