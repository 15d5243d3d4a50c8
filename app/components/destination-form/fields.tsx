import type { SettingField } from "@contract/integrations/types";
import type { IntegrationInstructions } from "@contract/destinations";
import { Field as UiField } from "~/components/ui/field";

/** The form's values by field name (every plug-in's settings share one flat form). */
export type FormValues = Partial<Record<string, string>>;
/** Each field's messages, as conform reports them. */
export type FieldErrors = Partial<Record<string, string[] | undefined>>;

/** A field of the destination form: its input's id is `destination-<name>`. */
export function Field(props: Omit<Parameters<typeof UiField>[0], "idPrefix">) {
  return <UiField idPrefix="destination" {...props} />;
}

/**
 * A manifest's fields, in order. A field's error shows under it (its help gives way to it); secret fields are
 * left out when the form is locked, as their values are never sent back.
 */
export function SettingFields(props: { fields: readonly SettingField[]; defaults: FormValues; errors: FieldErrors; locked?: boolean; secretFields: readonly string[] }) {
  return (
    <>
      {props.fields
        .filter((field) => !(props.locked && props.secretFields.includes(field.name)))
        .map((field) => {
          const error = props.errors[field.name]?.[0] ?? null;
          const secret = field.input === "password";
          return (
            <Field
              key={field.name}
              name={field.name}
              label={field.label}
              type={secret ? "password" : undefined}
              inputMode={field.input === "number" ? "numeric" : undefined}
              autoComplete={secret ? "new-password" : undefined}
              defaultValue={secret ? undefined : (props.defaults[field.name] ?? field.defaultValue)}
              readOnly={props.locked}
              error={error}
              placeholder={field.placeholder}
              hint={error ? undefined : field.help}
            />
          );
        })}
    </>
  );
}

/** The numbered steps of a plug-in's instructions (what to grant, where). */
export function Steps({ instructions }: { instructions: IntegrationInstructions }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h3 className="text-sm font-semibold text-slate-900">{instructions.title}</h3>
      <p className="mt-1 text-sm text-slate-600">{instructions.description}</p>
      <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-slate-700">
        {instructions.steps.map((step) => (
          <li key={step.title}>
            <span className="font-medium text-slate-900">{step.title}.</span> <span className="break-words">{step.description}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
