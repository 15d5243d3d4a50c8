import type { SettingField } from "@contract/integrations/types";
import type { IntegrationInstructions } from "@contract/destinations";

/** The form's values by field name (every plug-in's settings share one flat form). */
export type FormValues = Partial<Record<string, string>>;
/** Each field's messages, as conform reports them. */
export type FieldErrors = Partial<Record<string, string[] | undefined>>;

export function Field(props: {
  name: string;
  label: string;
  defaultValue?: string;
  readOnly?: boolean;
  type?: string;
  hint?: React.ReactNode;
  error?: string | null;
  placeholder?: string;
  autoComplete?: string;
  inputMode?: "numeric";
  onBlur?: () => void;
  children?: React.ReactNode;
  invalid?: boolean;
}) {
  const id = `destination-${props.name}`;
  const describedBy = [props.hint ? `${id}-hint` : null, props.error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {props.label}
      </label>
      {props.children ?? (
        <input
          id={id}
          name={props.name}
          type={props.type ?? "text"}
          defaultValue={props.defaultValue}
          readOnly={props.readOnly}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete ?? "off"}
          inputMode={props.inputMode}
          spellCheck={false}
          aria-invalid={props.invalid || props.error ? true : undefined}
          aria-describedby={describedBy}
          onBlur={props.onBlur}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 read-only:bg-slate-50 read-only:text-slate-700 focus:border-brand-500 focus:outline-none aria-invalid:border-red-500"
        />
      )}
      {props.hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      ) : null}
    </div>
  );
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
