import { useEffect, useRef, type ComponentType, type ReactNode } from "react";
import type { SetupInstructions } from "@contract/integrations/setup-calls";
import { ContinueButton } from "~/components/ui/continue-button";
import { CopyButton } from "~/components/ui/copy-button";
import { controlProps as kitControlProps, Field, fieldClasses } from "~/components/ui/field";

/** What the source create form adds to a source manifest: its setup fields, their defaults, and how it draws them. */

export const setupClasses = fieldClasses;

/**
 * The choice lists (and setup steps) a setup loads from the backend, by the names its plug-in gives them (its
 * setup.server.ts loads them, its setup.tsx draws them): each plug-in names its own shape as `L`.
 */
export type SetupLists = Readonly<Record<string, unknown>>;

/** The errors of the last submit, by field name. */
export type SetupErrors = Record<string, string[] | undefined>;

/** The id prefix of the create form's fields (the kit's Field names them `source-<name>`). */
export const FIELD_PREFIX = "source";

/** The kit's `controlProps` under the source form's id prefix. */
export const controlProps = (name: string, error: string | undefined, hint = false) => kitControlProps(FIELD_PREFIX, name, error, hint);

export interface SourceSetupProps<L extends object = SetupLists> {
  /** The live values of the form. */
  setup: Record<string, string>;
  errors: SetupErrors;
  /** The values the server last saw (what the lists were loaded for). */
  saved: Record<string, string>;
  lists: L;
  /** The chosen authentication mode, for a source with several (Gmail). */
  authMode: string | null;
  hydrated: boolean;
  /** With JS: saves the setup and loads the lists in place. */
  saveSetup: () => void;
}

/**
 * A source's part of the create form: app/integrations/sources/<name>/setup.tsx exports it as its default (the
 * registry, app/integrations/sources.ts, finds every folder's), beside setup.server.ts for the loader and action.
 */
export interface SourceSetup<L extends object = SetupLists> {
  /** The setup fields its form sends (spec §3 "Source metadata by integration"). */
  fields: string[];
  defaults: Record<string, string>;
  /** The source_metadata for POST /sources/create, names and e-mails taken from the lists the user chose from. */
  metadata(setup: Record<string, string>, lists: L, authMode: string | null): Record<string, unknown>;
  /** Complete enough to create (spec §4); `strict` without JS counts only what the server knows. */
  complete(values: Record<string, string>, strict: boolean, authMode: string | null): boolean;
  Setup: ComponentType<SourceSetupProps<L>>;
  /** The verify button's words, when the integration verifies. */
  verifyLabel?: string;
  /** The authenticate button's words in a mode that only generates instructions (Gmail's verified service account). */
  authLabel?(mode: string | null): string | null;
}

/** "12 members", "1 member": a unit's size in a choice list. */
export const members = (count: number) => `${count} ${count === 1 ? "member" : "members"}`;

/**
 * The setup of a source that reads a whole organization ("ORG") or one unit of it (a Zoom group, a Teams team): its
 * fields, defaults, metadata (the unit's id and name from the list the user chose from) and completeness. `scope` is
 * the scope field and the unit's value in it, `unit` the unit's id and name fields, `units` the list as [id, name].
 */
export function orgOrUnitSetup<L extends object>(
  [scopeField, scope]: [string, string],
  [idField, nameField]: [string, string],
  units: (lists: L) => [string, string][] | undefined,
): Pick<SourceSetup<L>, "fields" | "defaults" | "metadata" | "complete"> {
  return {
    fields: [scopeField, idField],
    defaults: { [scopeField]: "ORG" },
    metadata(setup, lists) {
      const inUnit = setup[scopeField] === scope;
      const [id, name] = (inUnit ? units(lists)?.find(([id]) => id === setup[idField]) : undefined) ?? [setup[idField] ?? "", ""];
      return { [scopeField]: setup[scopeField], [idField]: inUnit ? id : "", [nameField]: name };
    },
    complete: (values, strict) => values[scopeField] === "ORG" || (values[scopeField] === scope && (!strict || !!values[idField])),
  };
}

export function Radio(props: { name: string; value: string; checked: boolean; label: string; onChange?: () => void }) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-800">
      <input type="radio" name={props.name} value={props.value} defaultChecked={props.checked} onChange={props.onChange} className="h-4 w-4 accent-brand-600" />
      {props.label}
    </label>
  );
}

/** An integration's setup steps (Teams, Gmail's delegation), their code copyable. */
export function Instructions({ instructions }: { instructions: SetupInstructions }) {
  return (
    <section aria-labelledby="setup-instructions" className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h3 id="setup-instructions" className="text-sm font-semibold text-slate-900">
        Setup instructions
      </h3>
      <p className="mt-1 text-sm text-slate-700">{instructions.introduction}</p>
      <ol className="mt-3 list-decimal space-y-3 pl-5 text-sm text-slate-700">
        {instructions.steps.map((step) => (
          <li key={step.title}>
            <p className="font-medium text-slate-900">{step.title}</p>
            <p className="mt-0.5 whitespace-pre-line">{step.details}</p>
            {step.code_block ? (
              <div className="mt-2 flex items-start gap-2">
                <pre tabIndex={0} aria-label={`${step.title}: code`} className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
                  {step.code_block}
                </pre>
                <CopyButton text={() => step.code_block!} />
              </div>
            ) : null}
            {step.options?.map((option) => (
              <div key={option.sub_title} className="mt-2">
                <p className="text-xs font-semibold text-slate-700">{option.sub_title}</p>
                <pre tabIndex={0} aria-label={`${option.sub_title}: code`} className="mt-1 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
                  {option.code_block}
                </pre>
              </div>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** An extraction scope choice: the first option unless another is chosen; with JS a change saves and loads lists. */
export function ScopeChoice(props: {
  id: string;
  name: string;
  options: [value: string, label: string][];
  current: string | undefined;
  errors: SetupErrors;
  hydrated: boolean;
  saveSetup: () => void;
  children?: ReactNode;
}) {
  const chosen = props.options.some(([value]) => value === props.current) ? props.current : props.options[0]![0];
  const error = props.errors[props.name]?.[0];
  const group = useRef<HTMLDivElement>(null);
  const { hydrated, saveSetup } = props;
  // A scope chosen while the page's script was still loading reached no change handler: once the page is
  // interactive, a radio the user checked that differs from the saved scope is saved (and its list loaded) then.
  useEffect(() => {
    if (!hydrated) return;
    const checked = group.current?.querySelector<HTMLInputElement>("input[type=radio]:checked")?.value;
    if (checked && checked !== chosen) saveSetup();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the page becomes interactive
  }, [hydrated]);
  return (
    <div ref={group} role="radiogroup" aria-labelledby={props.id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${props.id}-error` : undefined} className="space-y-2">
      <p id={props.id} className={setupClasses.label}>
        Extraction scope
      </p>
      {props.options.map(([value, text]) => (
        <Radio key={value} name={props.name} value={value} checked={value === chosen} label={text} onChange={props.hydrated ? props.saveSetup : undefined} />
      ))}
      {error ? (
        <p id={`${props.id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {props.children}
    </div>
  );
}

/** Without JavaScript: saves the chosen scope (and unit) and draws what it brings, the group or team list. */
export function ContinueWithScope() {
  return <ContinueButton what="scope" formMethod="post" name="intent" value="setup" />;
}

export const GROUP_SCOPES: [string, string][] = [
  ["ORG", "Entire organization"],
  ["GROUP", "A specific group"],
];

/** Saves the setup and loads the group list (Gmail's, after typing the admin, with or without JavaScript). */
export function LoadGroups() {
  return (
    <button type="submit" name="intent" value="setup" className="btn-secondary">
      Load groups
    </button>
  );
}

/** A select of what a setup loaded (a group, a team), under its label, its error under it. */
export function ListChoice(props: {
  name: string;
  label: string;
  placeholder: string;
  current: string | undefined;
  choices: [value: string, text: string][];
  errors: SetupErrors;
  onChange?: () => void;
}) {
  const error = props.errors[props.name]?.[0];
  return (
    <Field name={props.name} label={props.label} idPrefix={FIELD_PREFIX} error={error}>
      <select {...controlProps(props.name, error)} defaultValue={props.current ?? ""} className={setupClasses.input} onChange={props.onChange}>
        <option value="">{props.placeholder}</option>
        {props.choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}
