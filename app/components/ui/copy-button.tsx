import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

/** Spec §9: the copy button shows "Copied!" for 2 seconds. */
export const COPIED_FOR_MS = 2000;

/**
 * Copies `text()` to the clipboard. An enhancement: it renders nothing until
 * JavaScript runs, and the text beside it stays selectable without JS.
 */
export function CopyButton({ text, label = "Copy" }: { text: () => string; label?: string }) {
  // False on the server and during hydration, true once JavaScript runs in the browser.
  const ready = useHydrated();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  if (!ready) return null;
  return (
    <button
      type="button"
      className="btn-secondary px-3 py-1.5 text-xs"
      onClick={async () => {
        await navigator.clipboard.writeText(text());
        setCopied(true);
      }}
    >
      <span aria-live="polite">{copied ? "Copied!" : label}</span>
    </button>
  );
}
