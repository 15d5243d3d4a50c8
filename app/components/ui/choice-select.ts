import { useEffect, useRef } from "react";

/**
 * A select whose choice reloads the page's data (a type, a source, a platform, a category): uncontrolled, so the
 * user's choice shows at once and the select keeps its focus through the load. Its ref:
 * - a choice made before the page's script ran (JavaScript slow to arrive) is what the screen shows: once the
 *   script runs, the page follows it (`follow`, what a change of the select does), never puts its own value back
 *   over it or leaves the rest of the form showing the fields of another choice;
 * - when the page shows another value (the browser's Back), the select is set to it.
 * Without JavaScript the select's Continue button applies the choice (ContinueButton).
 */
export function useChoiceSelect(value: string, follow: (chosen: string) => void) {
  const ref = useRef<HTMLSelectElement>(null);
  const shown = useRef(value);
  useEffect(() => {
    const select = ref.current;
    if (!select) return;
    if (shown.current === value) {
      // The option the page was drawn with (or the first, when it marked none): another one showing is the user's.
      const drawn = Array.from(select.options).find((option) => option.defaultSelected) ?? select.options[0];
      if (drawn && select.value !== drawn.value) follow(select.value);
      return;
    }
    shown.current = value;
    if (select.value !== value) select.value = value;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the page's value changes, not with each render's callback
  }, [value]);
  return ref;
}
