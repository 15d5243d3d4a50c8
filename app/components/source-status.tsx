/** A source's status (docs/decisions/2026-11-22-source-status.md); none is "Unknown" (spec §2). */
export function SourceStatusBadge({ status }: { status: string | null }) {
  if (!status) return <span className="text-slate-600">Unknown</span>;
  const tone =
    status === "active" ? "bg-emerald-50 text-emerald-800 ring-emerald-200" : status === "error" ? "bg-red-50 text-red-800 ring-red-200" : "bg-slate-100 text-slate-700 ring-slate-200";
  const text = status === "active" ? "Active" : status === "error" ? "Error" : status;
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone}`}>{text}</span>;
}
