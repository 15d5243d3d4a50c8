import { useNavigate } from "@remix-run/react";

export interface Column<T> {
  header: string;
  cell: (row: T) => React.ReactNode;
  className?: string;
}

/**
 * A list table. Each row's first cell holds a real link (works without JS);
 * with JS the whole row is clickable too.
 */
export function DataTable<T extends { id: string }>(props: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowHref?: (row: T) => string;
  footer?: React.ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <div className="card overflow-hidden">
      <div className="overflow-x-auto">
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
          <tbody className="divide-y divide-slate-100 bg-white">
            {props.rows.map((row) => {
              const href = props.rowHref?.(row);
              return (
                <tr
                  key={row.id}
                  className={href ? "cursor-pointer hover:bg-slate-50" : undefined}
                  onClick={
                    href
                      ? (event) => {
                          const target = event.target as HTMLElement;
                          if (!target.closest("a,button,summary,details,input,select")) navigate(href);
                        }
                      : undefined
                  }
                >
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
