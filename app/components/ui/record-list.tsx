import { DataTable, type Column } from "./data-table";
import { DateTime } from "~/components/date-time";
import { EmptyState } from "./empty-state";
import { ErrorBlock } from "./error-block";
import { PageHeader } from "./page-header";
import { Pagination } from "./pagination";
import { ListFilters, NoMatches } from "./list-filters";
import { StatusBadge } from "./status-badge";
import type { ListPage } from "~/services/lists.server";

interface NamedRecord {
  id: string;
  name: string;
  description: string;
  created_at: string;
  connector_count: number;
  integration_label: string;
  status: string | null;
}

/**
 * The sources and destinations lists (spec: Name, Description, Created At,
 * Connector Count; and, at a glance, their type and status), their search and
 * filters, their empty state and their load error.
 */
export function RecordList<T extends NamedRecord>(props: {
  data: ListPage<T>;
  timeZone: string;
  path: "sources" | "destinations";
  title: string;
  description: string;
  noun: string;
  emptyBody: string;
}) {
  const { data, path } = props;
  const columns: Column<T>[] = [
    {
      header: "Name",
      cell: (row) => (
        <a href={`/${path}/details/${row.id}`} className="font-semibold text-slate-900 hover:text-brand-700">
          {row.name}
        </a>
      ),
      className: "min-w-40 max-w-xs",
    },
    { header: "Type", cell: (row) => row.integration_label, className: "whitespace-nowrap" },
    { header: "Status", cell: (row) => <StatusBadge status={row.status} /> },
    { header: "Description", cell: (row) => <span className="line-clamp-2 text-slate-600">{row.description}</span>, className: "max-w-sm" },
    { header: "Created At", cell: (row) => <DateTime value={row.created_at} timeZone={props.timeZone} />, className: "whitespace-nowrap" },
    { header: "Connector Count", cell: (row) => row.connector_count, className: "text-right tabular-nums" },
  ];
  return (
    <>
      <PageHeader
        title={props.title}
        description={props.description}
        action={data.total > 0 || data.find.filtered ? { to: `/${path}/add`, label: `New ${props.noun}` } : undefined}
      />
      {data.total > 0 || data.find.filtered || data.status === 400 ? <ListFilters find={data.find} choices={data.choices} noun={path} /> : null}
      {data.error ? (
        <ErrorBlock message={data.error} />
      ) : data.total === 0 && data.find.filtered ? (
        <NoMatches noun={path} />
      ) : data.total === 0 ? (
        <EmptyState title={`No ${props.title} Found`} body={props.emptyBody} action={{ to: `/${path}/add`, label: `Create ${props.noun}` }} />
      ) : (
        <DataTable
          caption={props.title}
          columns={columns}
          rows={data.rows}
          rowHref={(row) => `/${path}/details/${row.id}`}
          footer={<Pagination page={data.page} pageSize={data.pageSize} total={data.total} noun={path} find={data.find} />}
        />
      )}
    </>
  );
}
