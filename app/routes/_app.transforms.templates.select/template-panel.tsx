import { Flowchart } from "~/components/flowchart";
import type { TemplateDetail } from "~/services/transforms.server";

/** The chosen template in full: what it does, its pipeline (a flowchart, or the server's diagram without JavaScript), what it needs and writes. */
export function TemplatePanel({ t, categories, loading }: { t: TemplateDetail; categories: { id: string; name: string }[]; loading: boolean }) {
  return (
    <section className={`card p-6 transition-opacity ${loading ? "opacity-60" : ""}`} aria-labelledby="template-name">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="template-name" className="text-lg font-semibold text-slate-900">
            {t.name}
          </h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">{t.description}</p>
        </div>
        <span className="rounded-md bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">
          {categories.find((c) => c.id === t.category)?.name ?? t.category}
        </span>
      </div>
      <div className="mt-6">
        <h3 className="mb-2 text-sm font-semibold text-slate-900">Pipeline</h3>
        <Flowchart key={t.id} code={t.mermaid_code} descriptions={t.node_descriptions} title={t.name} pipeline={t.pipeline} />
      </div>
      <div className="mt-6 grid gap-6 border-t border-slate-100 pt-6 md:grid-cols-3">
        <div className="min-w-0">
          <h3 className="mb-2 text-sm font-semibold text-slate-900">How it works</h3>
          {t.steps.length ? (
            <ol className="list-decimal space-y-1.5 pl-5 text-sm text-slate-700" aria-label="Template steps">
              {t.steps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          ) : (
            <p className="text-sm text-slate-600">{t.description}</p>
          )}
        </div>
        <div className="min-w-0">
          <h3 className="mb-2 text-sm font-semibold text-slate-900">Requirements</h3>
          {t.requirements.length ? (
            <ul className="space-y-1.5 text-sm text-slate-700" aria-label="Requirements">
              {t.requirements.map((r) => (
                <li key={r} className="flex gap-2">
                  <svg viewBox="0 0 20 20" className="mt-0.5 h-4 w-4 shrink-0 text-green-600" fill="currentColor" aria-hidden="true">
                    <path
                      fillRule="evenodd"
                      d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
                      clipRule="evenodd"
                    />
                  </svg>
                  {r}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">Nothing beyond the connector&apos;s data.</p>
          )}
        </div>
        <div className="min-w-0">
          <h3 className="mb-2 text-sm font-semibold text-slate-900">Writes</h3>
          {t.outputs.length ? (
            <ul className="space-y-2 text-sm text-slate-700">
              {t.outputs.map((o) => (
                <li key={o.table}>
                  <code className="rounded bg-slate-100 px-1 py-0.5 text-xs break-all text-slate-800">{o.table}</code>
                  <span className="mt-0.5 block text-slate-600">{o.description}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">Results in the destination warehouse.</p>
          )}
        </div>
      </div>
    </section>
  );
}
