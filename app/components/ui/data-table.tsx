import { useNavigate } from "@remix-run/react";

export interface Column<T> {
  header: string;
  cell: (row: T) => React.ReactNode;
  className?: string;
}

/**
 * A list table. Cells hold plain <a> links (they work without JS); with JS one
 * delegated handler turns a click on any same-site link, or anywhere on a row,
 * into a client-side navigation. Plain anchors instead of a <Link> per cell:
 * a page of 50 rows would otherwise render hundreds of router-aware components.
 */
export function DataTable<T extends { id: string }>(props: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowHref?: (row: T) => string;
  footer?: React.ReactNode;
}) {
  const navigate = useNavigate();
  const onClick = (event: React.MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const target = event.target as HTMLElement;
    const anchor = target.closest("a");
    if (anchor) {
      if (anchor.origin !== window.location.origin || anchor.target || anchor.hasAttribute("download")) return;
      event.preventDefault();
      navigate(anchor.pathname + anchor.search + anchor.hash);
      return;
    }
    if (target.closest("button,summary,details,input,select,label")) return;
    const href = target.closest<HTMLElement>("tr[data-href]")?.dataset.href;
    if (href) navigate(href);
  };
  return (
    <div className="card overflow-hidden">
      {/* A table wider than a phone scrolls sideways: the scroll box is a named region the keyboard can reach and scroll
          (its focus ring drawn inside, as the card clips what sticks out). */}
      <div className="overflow-x-auto focus-visible:-outline-offset-2" tabIndex={0} role="region" aria-label={props.caption}>
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{props.caption}</caption>
          <thead className="bg-slate-50">
            <tr>
              {props.columns.map((column) => (
                <th key={column.header} scope="col" className={`px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase ${column.className ?? ""}`}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 bg-white" onClick={onClick}>
            {props.rows.map((row) => {
              const href = props.rowHref?.(row);
              return (
                <tr key={row.id} data-href={href} className={href ? "cursor-pointer hover:bg-slate-50" : undefined}>
                  {props.columns.map((column) => (
                    <td key={column.header} className={column.className ? `cell ${column.className}` : "cell"}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {props.footer}
    </div>
  );
}
