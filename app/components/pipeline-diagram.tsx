import type { Template } from "@contract/transforms";

type Pipeline = NonNullable<Template["pipeline"]>;

const STAGES = [
  { kind: "data", title: "Data", tone: "border-slate-300 bg-white" },
  { kind: "primitive", title: "Primitives", tone: "border-brand-200 bg-brand-50" },
  { kind: "signal", title: "Signals", tone: "border-teal-200 bg-teal-50" },
  { kind: "outcome", title: "Outcome", tone: "border-amber-200 bg-amber-50" },
] as const;

/**
 * A template's pipeline drawn by the server from the template's data, for a page without JavaScript (and when the
 * flowchart cannot be drawn): its stages left to right (top to bottom on a phone), each node with what it reads
 * from and, on hover, what it does. Plain HTML lists, so a screen reader reads it in order.
 */
export function PipelineDiagram({ pipeline, title, descriptions = {} }: { pipeline: Pipeline; title: string; descriptions?: Record<string, string> }) {
  const labels = new Map(pipeline.nodes.map((n) => [n.id, n.label]));
  const inputsOf = (id: string) => pipeline.edges.filter(([, to]) => to === id).map(([from]) => labels.get(from) ?? from);
  const stages = STAGES.map((stage) => ({ ...stage, nodes: pipeline.nodes.filter((n) => n.kind === stage.kind) })).filter((s) => s.nodes.length > 0);
  return (
    <figure className="rounded-lg border border-slate-200 bg-slate-50 p-4" aria-label={`Pipeline of ${title}`}>
      <ol className="grid gap-3 md:grid-flow-col md:auto-cols-fr">
        {stages.map((stage, i) => (
          <li key={stage.kind} className="relative min-w-0">
            <h4 className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">{stage.title}</h4>
            <ul className="space-y-2">
              {stage.nodes.map((node) => {
                const inputs = inputsOf(node.id);
                return (
                  <li key={node.id} className={`rounded-lg border px-3 py-2 text-sm ${stage.tone}`}>
                    <span className="font-medium text-slate-900">{node.label}</span>
                    {inputs.length ? <span className="block text-xs text-slate-600">from {inputs.join(", ")}</span> : null}
                    {/* Its details in words on the page, not in a hover-only tooltip (there is no hover on a phone). */}
                    {descriptions[node.id] ? <span className="mt-1 block text-xs text-slate-700">{descriptions[node.id]}</span> : null}
                  </li>
                );
              })}
            </ul>
            {i < stages.length - 1 ? (
              <span className="mt-1 block text-center text-slate-400 md:absolute md:top-8 md:-right-2.5 md:mt-0" aria-hidden="true">
                <span className="md:hidden">↓</span>
                <span className="hidden md:inline">→</span>
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      <figcaption className="mt-3 text-xs text-slate-600">
        {title}: {stages.map((s) => s.title.toLowerCase()).join(" → ")}
      </figcaption>
    </figure>
  );
}
