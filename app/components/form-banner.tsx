import { useEffect, useRef } from "react";

/**
 * The one place a create/edit page shows its errors (spec §8 "Display"): a
 * banner at the top of the form, scrolled into view when it appears. Without
 * JS the page reloads at the top, where the banner is.
 */
export function FormBanner({ errors }: { errors: string[] | null | undefined }) {
  const ref = useRef<HTMLDivElement>(null);
  const text = errors?.filter(Boolean).join("\n") ?? "";
  useEffect(() => {
    if (text) {
      window.scrollTo({ top: 0, behavior: "smooth" });
      ref.current?.focus();
    }
  }, [text]);
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
