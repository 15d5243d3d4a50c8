import { useEffect, useRef } from "react";

/**
 * The one place a create/edit page shows its errors (spec §8 "Display"): a
 * banner at the top of the form, focused and scrolled into view below the
 * sticky top bar when it appears. Without JS the page reloads at the top,
 * where the banner is.
 */
export function FormBanner({ errors, focusKey }: { errors: string[] | null | undefined; focusKey?: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  const text = errors?.filter(Boolean).join("\n") ?? "";
  const shown = !!text;
  // Focus when the banner appears, or when a new answer to a submit (`focusKey`, e.g. conform's lastResult)
  // arrives; not each time its list changes: a form that re-checks its fields as the user types changes the list
  // under their fingers, and the focus must stay in the field being fixed.
  useEffect(() => {
    const banner = ref.current;
    if (!shown || !banner) return;
    // Focus without the browser's own jump, then scroll it to the top of the view: the page's scroll-padding keeps
    // it below the sticky top bar (app.css).
    banner.focus({ preventScroll: true });
    banner.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [shown, focusKey]);
  if (!text) return null;
  const list = errors!.filter(Boolean);
  return (
    <div ref={ref} tabIndex={-1} role="alert" className="mb-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 outline-none">
      {list.length === 1 ? (
        <p>{list[0]}</p>
      ) : (
        <ul className="list-disc space-y-1 pl-5">
          {list.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
