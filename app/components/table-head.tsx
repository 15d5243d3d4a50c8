/** The head of a small read-only table: its column labels in small capitals on a grey band; `cell` is their padding. */
export function TableHead({ labels, cell }: { labels: string[]; cell: string }) {
  return (
    <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
      <tr>
        {labels.map((label) => (
          <th key={label} className={cell}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
