import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { DESTINATION_MESSAGES as M, type Destination } from "@contract/destinations";
import { categoryLabel } from "@contract/labels";
import { DeleteDialog } from "~/components/ui/confirm-dialog";
import { EditDeleteLinks } from "~/components/record-actions";
import { destinationManifest } from "~/integrations";
import { ErrorBlock } from "~/components/ui/error-block";
import { requireUser } from "~/services/session.server";
import { deleteDestination, loadDestination } from "~/services/destinations.server";
import { readForm, STALE_FORM } from "~/services/form.server";
import { isRecordId, pageData } from "~/services/records.server";
import { useTimeZone } from "~/root";
import { recordAuthorsWords } from "@contract/labels";
import { loadRecordAuthors } from "~/services/activity.server";
import { DetailRow, DetailsCard, TimestampRows } from "~/components/ui/detail-row";
import { StatusBadge } from "~/components/ui/status-badge";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.destination?.name ?? "Destination"} · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const [outcome, authors] = isRecordId(params.id)
    ? await Promise.all([loadDestination(request, params.id), loadRecordAuthors(request, "destination", params.id)])
    : ([{ ok: false, status: 404 } as const, null] as const);
  if (outcome.ok) return pageData({ destination: outcome.data as Destination | null, authors: recordAuthorsWords(authors), error: null as string | null }, false);
  return pageData({ destination: null, authors: "", error: outcome.status === 404 ? M.notFound : M.fetchOneFailed }, outcome.status === 404);
}

/** The delete dialog's form: the id of the destination it was drawn for, which must be this page's. */
const deleteFormSchema = (id: string) => z.object({ id: z.literal(id, { errorMap: () => ({ message: STALE_FORM }) }) });

export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: deleteFormSchema(params.id ?? "") });
  if (submission.status !== "success") return Response.json({ error: STALE_FORM }, { status: 400 });
  const outcome = await deleteDestination(request, params.id ?? "");
  if (outcome.ok) return redirect("/destinations");
  const detail = outcome.status === 409 ? ` ${outcome.message}` : "";
  return Response.json({ error: `${M.deleteFailed}.${detail}` }, { status: outcome.status === 404 ? 404 : outcome.status === 409 ? 409 : 502 });
}

/**
 * The configuration worth showing (never anything secret: the backend keeps none in config), under the words
 * these pages have always used; the destination's own settings first, in its manifest's order.
 */
const CONFIG_LABELS: [string, string][] = [
  ["project_id", "GCP Project ID"],
  ["bucket_name", "Bucket name"],
  ["dataset_name", "Dataset name"],
  ["service_account_email", "Service account"],
  ["account", "Account"],
  ["user", "Username"],
  ["warehouse", "Warehouse"],
  ["database", "Database"],
  ["schema", "Schema"],
  ["stage_name", "Stage name"],
];

function configRows(destination: Destination): [string, string, string][] {
  const manifest = destinationManifest(destination.integration_name);
  const known = new Map(CONFIG_LABELS);
  const labels = new Map<string, string>();
  for (const field of manifest?.fields ?? []) if (!manifest?.secretFields.includes(field.name)) labels.set(field.name, known.get(field.name) ?? field.label);
  for (const [key, label] of CONFIG_LABELS) if (!labels.has(key)) labels.set(key, label);
  const config = destination.config as Record<string, unknown>;
  const shown = (v: unknown) => (typeof v === "string" && v !== "") || typeof v === "number";
  return [...labels].filter(([key]) => shown(config[key])).map(([key, label]) => [key, label, String(config[key])]);
}

function Details({ destination, authors }: { destination: Destination; authors: string }) {
  const timeZone = useTimeZone();
  return (
    <DetailsCard record={destination}>
      <DetailRow label="Type">{destination.integration_label}</DetailRow>
      <DetailRow label="Category">{categoryLabel(destination.category)}</DetailRow>
      <DetailRow label="Status">
        <StatusBadge status={destination.status} />
      </DetailRow>
      {configRows(destination).map(([key, label, value]) => (
        <DetailRow key={key} label={label}>
          <span className="font-mono text-[13px]">{value}</span>
        </DetailRow>
      ))}
      <DetailRow label="Connectors">{destination.connector_count}</DetailRow>
      <TimestampRows createdAt={destination.created_at} updatedAt={destination.updated_at} timeZone={timeZone} />
      {authors ? <DetailRow label="Who">{authors}</DetailRow> : null}
    </DetailsCard>
  );
}

export default function DestinationDetails() {
  const { destination, authors, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ error: string }>();
  const [params] = useSearchParams();
  return (
    <div className="mx-auto max-w-3xl">
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-3">
          <Link to="/destinations" className="inline-flex h-9 w-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900" aria-label="Back to destinations">
            <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
              <path d="M19 12H5m6-6-6 6 6 6" />
            </svg>
          </Link>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{destination?.name ?? "Destination"}</h1>
        </div>
        {destination ? (
          <div className="flex gap-3">
            <EditDeleteLinks editTo={`/destinations/edit/${destination.id}`} />
          </div>
        ) : null}
      </div>
      {destination ? <Details destination={destination} authors={authors} /> : <ErrorBlock message={error ?? M.fetchOneFailed} />}
      {destination && params.get("delete") ? (
        <DeleteDialog noun="destination" record={destination} consequences=" will be deleted. Connectors that use it must be changed first. This cannot be undone." hidden={{ id: destination.id }} error={actionData?.error ?? null} />
      ) : null}
    </div>
  );
}
