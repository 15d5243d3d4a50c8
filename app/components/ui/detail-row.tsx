import { DateTime } from "~/components/date-time";

/** One read-only field of a details page: a label and its value, in a <dl>. */
export function DetailRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 px-6 py-4 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm break-words text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

/** The Created and Updated rows every details page ends with (spec: Updated is "Unknown" when never). */
export function TimestampRows({ createdAt, updatedAt, timeZone }: { createdAt: string; updatedAt: string | null; timeZone: string }) {
  return (
    <>
      <DetailRow label="Created">
        <DateTime value={createdAt} timeZone={timeZone} />
      </DetailRow>
      <DetailRow label="Updated">{updatedAt ? <DateTime value={updatedAt} timeZone={timeZone} /> : "Unknown"}</DetailRow>
    </>
  );
}

/** The Name and Description rows every details page starts with ("No description provided" when it has none). */
export function NameRows({ record }: { record: { name: string; description?: string | null } }) {
  return (
    <>
      <DetailRow label="Name">{record.name}</DetailRow>
      <DetailRow label="Description">{record.description || <span className="text-slate-600">No description provided</span>}</DetailRow>
    </>
  );
}

/** A details page's card of fields: the record's name and description, then its own rows. */
export function DetailsCard({ record, children }: { record: { name: string; description?: string | null }; children: React.ReactNode }) {
  return (
    <div className="card overflow-hidden">
      <dl className="divide-y divide-slate-100">
        <NameRows record={record} />
        {children}
      </dl>
    </div>
  );
}
