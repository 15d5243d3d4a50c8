import type { ButtonHTMLAttributes } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

/**
 * The button beside a choice that shapes the rest of a form (a type, a source, a platform, a template), shown only
 * without JavaScript: it sends the form as a GET so the server draws the fields that choice brings. With JavaScript
 * the choice applies itself and the button is not rendered.
 *
 * Every such button reads "Continue", whatever the form. Its accessible name says what it continues with
 * ("Continue with this source type"), so a screen reader can tell it from the form's own submit button, and the
 * visible word stays inside the name (WCAG 2.5.3).
 */
export function ContinueButton({ what, className = "btn-secondary", ...props }: { what: string } & ButtonHTMLAttributes<HTMLButtonElement>) {
  const hydrated = useHydrated();
  if (hydrated) return null;
  return (
    <button type="submit" formMethod="get" formNoValidate className={className} aria-label={`Continue with this ${what}`} {...props}>
      Continue
    </button>
  );
}
