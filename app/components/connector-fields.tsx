import type { LookbackOption } from "@contract/connectors";
import type { Destination } from "@contract/destinations";
import type { Source } from "@contract/sources";
import { categoryLabel } from "@contract/labels";
import { controlClasses, controlProps as kitControlProps, Field, fieldClasses } from "~/components/ui/field";

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

/**
 * The destinations a connector writes to, one tick each (the create and update forms): every one the connector has
 * is shown and can be changed, so an edit never drops one the user did not untick.
 */
export function DestinationChoices({
  destinations,
  checked,
  error,
  empty,
}: {
  destinations: readonly Pick<Destination, "id" | "name" | "integration_label" | "category">[];
  checked: readonly string[];
  error: string | undefined;
  empty: string;
}) {
  const errorId = `${ID_PREFIX}-destination_ids-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className={fieldClasses.label}>Destinations</legend>
      {destinations.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {destinations.map((d) => (
            <li key={d.id}>
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="destination_ids"
                  value={d.id}
                  defaultChecked={checked.includes(d.id)}
                  aria-invalid={error ? true : undefined}
                  className="h-4 w-4 rounded border-slate-300"
                />
                {d.name} <span className="text-slate-500">({d.integration_label}: {categoryLabel(d.category).toLowerCase()})</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
