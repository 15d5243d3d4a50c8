
export { controlClasses, controlProps } from "~/components/ui/field";

/** The first error of a field, if any (conform gives a list). */
export const firstError = (errors: string[] | undefined) => errors?.[0];

/** The banner's list: the page's own problems, the form's, then every field's, each once. */
export function bannerErrors(page: readonly string[], form: string[] | undefined, fields: Record<string, string[]>): string[] {
  return [...new Set([...page, ...(form ?? []), ...Object.values(fields).flat()])];
}
