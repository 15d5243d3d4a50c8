/** The look of a form's labels and inputs, shared by every form of the app. */
export const fieldClasses = {
  label: "block text-sm font-medium text-slate-800",
  input:
    "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none disabled:bg-slate-100 disabled:text-slate-600",
};

/**
 * The id, name and ARIA of a control drawn inside a `Field` (a select, a textarea): `${prefix}-${name}`, the id the
 * Field's label points at, marked invalid and described by the hint and the error the Field shows under it.
 */
export function controlProps(prefix: string, name: string, error: string | null | undefined, hint = false) {
  const id = `${prefix}-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return { id, name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy } as const;
}

/** The classes of a control drawn inside a `Field`: the kit's, with the red border of an invalid one. */
export const controlClasses = `${fieldClasses.input} aria-invalid:border-red-500`;

/**
 * A labelled text input with its hint and its error under it: the error marks the input invalid (aria-invalid) and
 * both are tied to it (aria-describedby), so a screen reader reads them with the field. `children` replaces the input
 * (a select, a textarea) under the same label.
 */
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
  /** The latest value a date input offers. */
  max?: string;
  onBlur?: () => void;
  children?: React.ReactNode;
  invalid?: boolean;
  /** The input's id is `${idPrefix}-${name}` (default "field"). */
  idPrefix?: string;
}) {
  const control = controlProps(props.idPrefix ?? "field", props.name, props.error, !!props.hint);
  const id = control.id;
  return (
    <div>
      <label htmlFor={id} className={fieldClasses.label}>
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
          max={props.max}
          spellCheck={false}
          aria-invalid={props.invalid || props.error ? true : undefined}
          aria-describedby={control["aria-describedby"]}
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

