import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { parseWithZod } from "@conform-to/zod";
import { TRANSFORM_MESSAGES as M, type Transform } from "@contract/transforms";
import { transformTypeLabel } from "@contract/labels";
import { DataTable, type Column } from "~/components/ui/data-table";
import { DateTime } from "~/components/date-time";
import { EmptyState } from "~/components/ui/empty-state";
import { ErrorBlock } from "~/components/ui/error-block";
import { PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { listData, loadListPage } from "~/services/lists.server";
import { ListFilters, NoMatches } from "~/components/ui/list-filters";
import { StatusBadge } from "~/components/ui/status-badge";
import { RefreshLinkWithoutScript } from "~/components/refresh-without-script";
import { useRefreshWhile } from "~/components/run-timing";
import { withholdPage } from "~/services/page-cache.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { deleteTransform, loadTransform } from "~/services/transforms.server";
import { useTimeZone } from "~/root";

export const meta: MetaFunction = () => [{ title: "Transforms · Tributary" }];

/** What the list shows of a transform (and the confirmation needs). */
const pickTransform = (t: Transform) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  // In words here, on the server: the page's script then needs no table of labels.
  type_label: transformTypeLabel(t.transform_type),
  created_at: t.created_at,
  connector_id: t.connector_id,
  connector_name: t.connector_name,
  last_run_status: t.last_run?.status ?? null,
});
type TransformRow = ReturnType<typeof pickTransform>;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = await loadListPage({ request, context }, "transforms", "Failed to fetch transforms", pickTransform);
  // ?delete=<id> asks for confirmation; the transform may be on another page, so read it.
  const deleteId = new URL(request.url).searchParams.get("delete");
  let toDelete: TransformRow | null = null;
  if (deleteId) {
    toDelete = page.rows.find((row) => row.id === deleteId) ?? null;
    if (!toDelete) {
      const outcome = await loadTransform(request, deleteId);
      toDelete = outcome.ok ? pickTransform(outcome.data) : null;
      // The page shows no confirmation because the call failed, not because of the data.
      if (!outcome.ok) withholdPage(context);
    }
  }
  return listData({ ...page, toDelete });
}

/** The confirmation's Delete: the transform's id. */
const deleteSchema = z.object({ id: z.string({ required_error: M.deleteFailed }).trim().min(1, M.deleteFailed) });

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: deleteSchema });
  if (submission.status !== "success") return Response.json({ error: M.deleteFailed }, { status: 400 });
  const outcome = await deleteTransform(request, submission.value.id);
  if (!outcome.ok) return Response.json({ error: M.deleteFailed }, { status: outcome.status === 404 ? 404 : outcome.status < 500 ? 400 : 502 });
  return redirect("/transforms");
}

function ActionsMenu({ transform }: { transform: TransformRow }) {
  return (
    <details className="relative inline-block text-left">
      <summary className="btn-secondary cursor-pointer list-none px-3 py-1.5" aria-label={`Actions for ${transform.name}`}>
        Actions
      </summary>
      {/* Opens in place (the row grows): an absolutely placed menu would be clipped by the table's scroll box. */}
      {/* Choosing an item closes the menu, so it is closed again when the user comes back. */}
      <ul
        className="mt-1 w-36 rounded-lg border border-slate-200 bg-white p-1 text-left shadow-lg"
        onClick={(event) => event.currentTarget.closest("details")?.removeAttribute("open")}
      >
        <li>
          <a href={`/transforms/edit/${transform.id}`} className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100">
            Update
          </a>
        </li>
        <li>
          <a href={`?delete=${transform.id}`} className="block rounded-md px-3 py-2 text-sm text-red-700 hover:bg-red-50">
            Delete
          </a>
        </li>
      </ul>
    </details>
  );
}

export default function Transforms() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const timeZone = useTimeZone();
  // A run queued or running: the list follows it live (its status, then its outcome).
  const live = data.rows.some((t) => t.last_run_status === "running" || t.last_run_status === "queued");
  useRefreshWhile(live);
  const cancelTo = data.page > 1 ? `?page=${data.page}` : "/transforms";
  const columns: Column<TransformRow>[] = [
    {
      header: "Name",
      cell: (t) => (
        <Link to={`/transforms/details/${t.id}`} className="font-semibold text-slate-900 hover:text-brand-700 hover:underline">
          {t.name}
        </Link>
      ),
      // The two columns of names break a long name anywhere (the others' words never break), down to their minimum
      // widths: with the type, status, description, date and actions beside them, they fit a 1280 px window's list.
      className: "min-w-40 max-w-xs wrap-anywhere",
    },
    { header: "Type", cell: (t) => <span className="rounded-md bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">{t.type_label}</span> },
    { header: "Last Run", cell: (t) => (t.last_run_status ? <StatusBadge status={t.last_run_status} /> : <span className="text-slate-500">Never run</span>), className: "whitespace-nowrap" },
    { header: "Description", cell: (t) => <span className="line-clamp-2 text-slate-600">{t.description}</span>, className: "max-w-xs" },
    { header: "Created At", cell: (t) => <DateTime value={t.created_at} timeZone={timeZone} />, className: "whitespace-nowrap" },
    {
      header: "Connectors",
      cell: (t) => (
        <a href={`/connectors/details/${t.connector_id}`} className="link">
          {t.connector_name ?? "Unknown Connector"}
        </a>
      ),
      className: "min-w-36 wrap-anywhere",
    },
    { header: "Actions", cell: (t) => <ActionsMenu transform={t} />, className: "text-right" },
  ];
  return (
    <>
      <PageHeader title="Transforms" description="Analysis pipelines, built from templates, that run on what your connectors bring in." action={data.total > 0 || data.find.filtered ? { to: "/transforms/add", label: "New transform" } : undefined} />
      <RefreshLinkWithoutScript active={live} what="A run" />
      {data.total > 0 || data.find.filtered || data.status === 400 ? <ListFilters find={data.find} choices={data.choices} noun="transforms" /> : null}
      {data.error ? (
        <ErrorBlock message={data.error} />
      ) : data.total === 0 && data.find.filtered ? (
        <NoMatches noun="transforms" />
      ) : data.total === 0 ? (
        <EmptyState title="No Transforms Found" body="Create a transform to find topics, sentiment and risks in your synced meetings." action={{ to: "/transforms/add", label: "Create transform" }} />
      ) : (
        <DataTable caption="Transforms" columns={columns} rows={data.rows} footer={<Pagination page={data.page} pageSize={data.pageSize} total={data.total} noun="transforms" find={data.find} />} />
      )}
      {params.get("delete") ? (
        <ConfirmDialog
          title="Delete transform?"
          body={
            data.toDelete ? (
              <>
                <strong className="font-semibold text-slate-900">{data.toDelete.name}</strong> and its schedule will be deleted. This cannot be undone.
              </>
            ) : (
              "This transform no longer exists."
            )
          }
          confirmLabel="Delete"
          cancelTo={cancelTo}
          hidden={{ id: params.get("delete")! }}
          error={actionData?.error ?? (data.toDelete ? null : "Failed to delete transform")}
        />
      ) : null}
    </>
  );
}
