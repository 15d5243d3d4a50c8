/**
 * Every status the app shows, in one casing and one look: a run's ("succeeded"), a transform's ("SUCCEEDED"), a
 * source's ("active") and a destination's ("ACTIVE") all read "Succeeded", "Active" and so on.
 */

const TONES = {
  green: "bg-green-100 text-green-800",
  red: "bg-red-100 text-red-800",
  blue: "bg-blue-100 text-blue-800",
  amber: "bg-amber-100 text-amber-900",
  slate: "bg-slate-100 text-slate-700",
} as const;

const TONE_OF: Record<string, keyof typeof TONES> = {
  active: "green",
  succeeded: "green",
  healthy: "green",
  syncing: "green",
  delivered: "green",
  error: "red",
  failed: "red",
  running: "blue",
  paused: "amber",
  retrying: "amber",
  cancelled: "slate",
  "no input": "amber",
};

/**
 * The status a run shows: a queued run that has already failed an attempt waits out a back-off before its next one,
 * so it reads "Retrying" (its error says which attempt failed and why), not "Queued".
 */
export const shownRunStatus = (run: { status: string; error?: string | null }): string => (run.status === "queued" && run.error ? "retrying" : run.status);

/** "SUCCEEDED", "succeeded" → "Succeeded"; also for other one-word values (a run's trigger). */
export const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

/** The words a status reads as: "never_run" → "Never run", "ACTIVE" → "Active". */
export const statusText = (status: string) => titleCase(status).replaceAll("_", " ");

/** A status as a coloured badge ("never_run" reads "Never run"); no status at all reads "Unknown" (spec §2). */
export function StatusBadge({ status }: { status: string | null | undefined }) {
  if (!status) return <span className="text-slate-600">Unknown</span>;
  const tone = TONES[TONE_OF[status.toLowerCase()] ?? "slate"];
  return <span className={`rounded-md px-2 py-0.5 text-xs font-medium ${tone}`}>{statusText(status)}</span>;
}
