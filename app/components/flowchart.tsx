import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { Template } from "@contract/transforms";
import { renderMermaid } from "./flowchart.client";
import { PipelineDiagram } from "./pipeline-diagram";

/** Spec §9: zoom 10–300 %; the buttons zoom by ×1.2 / ×0.8, the wheel by ×1.1 / ×0.9; tooltips are 350 px wide. */
export const MIN_ZOOM = 0.1;
export const MAX_ZOOM = 3;
export const BUTTON_ZOOM = { in: 1.2, out: 0.8 } as const;
export const WHEEL_ZOOM = { in: 1.1, out: 0.9 } as const;
export const TOOLTIP_WIDTH = 350;

const clamp = (value: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, value));

interface View {
  scale: number;
  x: number;
  y: number;
}
const START: View = { scale: 1, x: 0, y: 0 };

/**
 * The template's node id of a flowchart node's <g>: mermaid names it
 * "[<diagram id>-]flowchart-<node id>-<n>" (and may carry data-id); the
 * longest matching known id wins, so "topic" never shadows "topic_words".
 */
function nodeIdOf(element: Element, known: string[]): string | null {
  const dataId = element.getAttribute("data-id");
  if (dataId && known.includes(dataId)) return dataId;
  let best: string | null = null;
  for (const id of known) {
    const matches = element.id === id || new RegExp(`(^|-)flowchart-${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-\\d+$`).test(element.id);
    if (matches && (!best || id.length > best.length)) best = id;
  }
  return best;
}

/**
 * A template's pipeline as a mermaid flowchart, with zoom (buttons and wheel),
 * pan by dragging, reset, and a tooltip on each node. Mermaid loads only in the
 * browser; before that (and without JavaScript, or when it cannot draw, or on a
 * screen narrower than 640 px) the server draws the same pipeline from the
 * template's data (PipelineDiagram); only a template without that data shows
 * the flowchart's source.
 */
export function Flowchart(props: { code: string; descriptions?: Record<string, string>; title: string; pipeline?: Template["pipeline"] }) {
  const hydrated = useHydrated();
  const reactId = useId();
  const renderId = `flowchart-svg-${reactId.replace(/[^a-zA-Z0-9]/g, "")}`;
  /** The drawing of `code` (or its failure); a drawing of other code is stale. */
  const [drawn, setDrawn] = useState<{ code: string; svg: string | null } | null>(null);
  const svg = drawn?.code === props.code ? drawn.svg : null;
  const failed = drawn?.code === props.code && drawn.svg === null;
  const [view, setView] = useState<View>(START);
  const [tooltip, setTooltip] = useState<{ text: string; x: number; y: number; above: boolean } | null>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const drag = useRef<{ pointerId: number; startX: number; startY: number; x: number; y: number } | null>(null);

  useEffect(() => {
    let cancelled = false;
    const code = props.code;
    renderMermaid(renderId, code).then(
      (markup) => !cancelled && setDrawn({ code, svg: markup }),
      () => !cancelled && setDrawn({ code, svg: null })
    );
    return () => {
      cancelled = true;
    };
  }, [props.code, renderId]);

  /** Zooms by `factor` keeping the point (px, py) of the viewport where it is. */
  const zoomAt = useCallback((factor: number, px?: number, py?: number) => {
    setView((current) => {
      const scale = clamp(current.scale * factor);
      const box = viewport.current?.getBoundingClientRect();
      const cx = px ?? (box ? box.width / 2 : 0);
      const cy = py ?? (box ? box.height / 2 : 0);
      const ratio = scale / current.scale;
      return { scale, x: cx - (cx - current.x) * ratio, y: cy - (cy - current.y) * ratio };
    });
  }, []);

  // The wheel needs a non-passive listener to keep the page from scrolling while zooming.
  useEffect(() => {
    const element = viewport.current;
    if (!element || !svg) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const box = element.getBoundingClientRect();
      zoomAt(event.deltaY < 0 ? WHEEL_ZOOM.in : WHEEL_ZOOM.out, event.clientX - box.left, event.clientY - box.top);
    };
    element.addEventListener("wheel", onWheel, { passive: false });
    return () => element.removeEventListener("wheel", onWheel);
  }, [svg, zoomAt]);

  const showTooltip = (event: React.PointerEvent<HTMLDivElement>) => {
    if (drag.current) return;
    const node = (event.target as Element).closest?.("g.node");
    if (!node || !viewport.current) return setTooltip(null);
    const id = nodeIdOf(node, Object.keys(props.descriptions ?? {}));
    const label = node.textContent?.replace(/\s+/g, " ").trim() ?? "";
    const text = (id && props.descriptions?.[id]) || label;
    if (!text) return setTooltip(null);
    const box = viewport.current.getBoundingClientRect();
    const x = Math.max(8, Math.min(event.clientX - box.left + 12, box.width - TOOLTIP_WIDTH - 8));
    const y = event.clientY - box.top;
    // In the lower half the tooltip opens above the pointer, so the viewport never cuts it off.
    setTooltip({ text, x, y, above: y > box.height / 2 });
  };

  const percent = Math.round(view.scale * 100);
  const showChart = hydrated && !failed;

  return (
    <div>
      {showChart ? (
        <div className={`overflow-hidden rounded-lg border border-slate-200 bg-white ${props.pipeline ? "hidden sm:block" : ""}`} data-testid="flowchart">
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2">
            <p className="text-xs text-slate-600">Drag to pan · scroll to zoom · hover a step for details</p>
            <div className="flex items-center gap-1" role="group" aria-label="Flowchart zoom">
              <button
                type="button"
                className="btn-secondary px-2.5 py-1 text-xs"
                onClick={() => zoomAt(BUTTON_ZOOM.out)}
                disabled={view.scale <= MIN_ZOOM}
                aria-label="Zoom out"
              >
                −
              </button>
              <output
                className="w-12 text-center text-xs font-medium text-slate-700 tabular-nums"
                aria-live="polite"
                aria-label="Zoom level"
                data-testid="flowchart-zoom"
              >
                {percent}%
              </output>
              <button
                type="button"
                className="btn-secondary px-2.5 py-1 text-xs"
                onClick={() => zoomAt(BUTTON_ZOOM.in)}
                disabled={view.scale >= MAX_ZOOM}
                aria-label="Zoom in"
              >
                +
              </button>
              <button type="button" className="btn-secondary ml-1 px-2.5 py-1 text-xs" onClick={() => setView(START)}>
                Reset
              </button>
            </div>
          </div>
          <div
            ref={viewport}
            data-testid="flowchart-viewport"
            data-zoom={percent}
            data-pan={`${Math.round(view.x)},${Math.round(view.y)}`}
            role="img"
            aria-label={`${props.title} flowchart`}
            className="relative h-72 cursor-grab touch-none overflow-hidden select-none active:cursor-grabbing"
            onPointerDown={(event) => {
              if (event.button !== 0) return;
              event.currentTarget.setPointerCapture(event.pointerId);
              drag.current = { pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, x: view.x, y: view.y };
              setTooltip(null);
            }}
            onPointerMove={(event) => {
              const d = drag.current;
              if (d && d.pointerId === event.pointerId) {
                const dx = event.clientX - d.startX;
                const dy = event.clientY - d.startY;
                setView((current) => ({ ...current, x: d.x + dx, y: d.y + dy }));
              } else showTooltip(event);
            }}
            onPointerUp={() => {
              drag.current = null;
            }}
            onPointerCancel={() => {
              drag.current = null;
            }}
            onPointerLeave={() => setTooltip(null)}
          >
            {svg ? (
              <div
                className="flex h-full origin-top-left items-center p-4 [&_svg]:mx-auto [&_svg]:h-full [&_svg]:w-full [&_svg]:max-w-full!"
                style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
                // Mermaid's output with securityLevel "strict" (its labels are sanitised by DOMPurify).
                dangerouslySetInnerHTML={{ __html: svg }}
              />
            ) : (
              <p className="flex h-full items-center justify-center text-sm text-slate-500">Drawing the flowchart…</p>
            )}
            {tooltip ? (
              <div
                role="tooltip"
                className="pointer-events-none absolute z-10 rounded-lg bg-slate-900 px-3 py-2 text-xs leading-relaxed text-white shadow-lg"
                style={{
                  left: tooltip.x,
                  top: tooltip.above ? tooltip.y - 12 : tooltip.y + 16,
                  width: TOOLTIP_WIDTH,
                  transform: tooltip.above ? "translateY(-100%)" : undefined,
                }}
              >
                {tooltip.text}
              </div>
            ) : null}
          </div>
        </div>
      ) : null}
      {(!hydrated || failed) && props.pipeline ? <PipelineDiagram pipeline={props.pipeline} title={props.title} descriptions={props.descriptions} /> : null}
      {/* On a phone the drawn flowchart's words would be a few pixels high and its details need a hover: the server's
          diagram of the same pipeline, in the page's own text, stands in for it there. */}
      {showChart && props.pipeline ? (
        <div className="sm:hidden">
          <PipelineDiagram pipeline={props.pipeline} title={props.title} descriptions={props.descriptions} />
        </div>
      ) : null}
      {(!hydrated || failed) && !props.pipeline ? (
        <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          {failed ? <p className="mb-2 text-sm text-slate-600">The flowchart could not be drawn; here is its source.</p> : null}
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Flowchart source (mermaid)</p>
          <pre
            tabIndex={0}
            className="mt-2 max-h-72 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100"
            aria-label="Flowchart source"
          >
            <code>{props.code}</code>
          </pre>
        </div>
      ) : null}
    </div>
  );
}
