/** The four stages of creating a transform, as a progress bar over the wizard's pages. */
const STAGES = ["Details", "Template", "Permissions", "Configure"] as const;

export function TransformSteps({ current }: { current: 1 | 2 | 3 | 4 }) {
  return (
    <nav aria-label="Progress" className="mb-6">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-2 text-sm">
        {STAGES.map((stage, index) => {
          const n = index + 1;
          const state = n < current ? "done" : n === current ? "current" : "todo";
          return (
            <li key={stage} className="flex items-center gap-2" aria-current={state === "current" ? "step" : undefined}>
              <span
                className={
                  "flex h-6 w-6 items-center justify-center rounded-full text-xs font-semibold " +
                  (state === "done"
                    ? "bg-brand-600 text-white"
                    : state === "current"
                    ? "border-2 border-brand-600 text-brand-700"
                    : "border border-slate-300 text-slate-500")
                }
                aria-hidden="true"
              >
                {state === "done" ? "✓" : n}
              </span>
              <span className={state === "todo" ? "text-slate-500" : "font-medium text-slate-900"}>
                {stage}
                {state === "done" ? <span className="sr-only"> (completed)</span> : null}
              </span>
              {n < STAGES.length ? <span className="mx-1 h-px w-6 bg-slate-300 sm:w-10" aria-hidden="true" /> : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
