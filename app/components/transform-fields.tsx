import { fieldClasses } from "~/components/ui/field";

/**
 * What the transform forms' selects and inputs drawn inside a kit `Field` share: the id the Field's label points at
 * (`${prefix}-${name}`), the invalid mark and the hint and error they are described by.
 */
export function controlProps(prefix: string, name: string, error: string | undefined, hint = false) {
  const id = `${prefix}-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return { id, name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy } as const;
}

/** The kit's input classes, with the red border of an invalid control. */
export const controlClasses = `${fieldClasses.input} aria-invalid:border-red-500`;

/** The first error of a field, if any (conform gives a list). */
export const firstError = (errors: string[] | undefined) => errors?.[0];

/** The banner's list: the page's own problems, the form's, then every field's, each once. */
export function bannerErrors(page: readonly string[], form: string[] | undefined, fields: Record<string, string[]>): string[] {
  return [...new Set([...page, ...(form ?? []), ...Object.values(fields).flat()])];
}
