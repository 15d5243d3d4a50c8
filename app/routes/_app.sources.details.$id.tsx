import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { SOURCE_MESSAGES } from "@contract/sources";
import { sourceManifest } from "@contract/integrations/sources";
import { dataStyleLabel, scopeLabel } from "@contract/labels";
import { DeleteDialog } from "~/components/ui/confirm-dialog";
import { EditDeleteLinks } from "~/components/record-actions";
import { ErrorBlock } from "~/components/ui/error-block";
import { BackLink } from "~/components/ui/back-link";
import { StatusBadge } from "~/components/ui/status-badge";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { api, loadSource } from "~/services/sources.server";
import { readForm, STALE_FORM } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { useTimeZone } from "~/root";
import { recordAuthorsWords } from "@contract/labels";
import { loadRecordAuthors } from "~/services/activity.server";
import { isRecordId } from "~/services/records.server";
import { DetailRow, NameRows, TimestampRows } from "~/components/ui/detail-row";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.source?.name ?? "Source"} · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const id = params.id ?? "";
  const [page, authors] = await Promise.all([loadSource(request, id), isRecordId(id) ? loadRecordAuthors(request, "source", id) : null]);
  return data({ ...page.data, authors: recordAuthorsWords(authors) }, page.init ?? undefined);
}

/** The delete dialog's form: the id of the source it was drawn for, which must be this page's. */
const deleteFormSchema = (id: string) => z.object({ id: z.literal(id, { errorMap: () => ({ message: STALE_FORM }) }) });

/** Delete, after the ?delete= confirmation. A source that connectors use is refused with their names. */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: deleteFormSchema(params.id ?? "") });
  if (submission.status !== "success") return Response.json({ error: STALE_FORM }, { status: 400 });
  const result = await api.deleteSource(request, params.id ?? "");
  if (result.ok) return redirect("/sources");
  return Response.json({ error: result.status === 409 ? result.message : SOURCE_MESSAGES.deleteFailed }, { status: result.status === 404 ? 404 : result.status === 409 ? 409 : 502 });
}


export default function SourceDetails() {
  const { source, authors, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const timeZone = useTimeZone();
  if (!source) {
    return (
      <div className="mx-auto max-w-3xl">
        <BackLink to="/sources">Sources</BackLink>
        <ErrorBlock message={error ?? SOURCE_MESSAGES.fetchSourceFailed} />
      </div>
    );
  }
  // The settings its manifest labels (contract/integrations/<name>.ts settingLabels).
  const labels: Readonly<Record<string, string>> = sourceManifest(source.integration_name)?.settingLabels ?? {};
  const metadata = Object.entries(source.source_metadata).filter(([key, value]) => labels[key] && value !== "" && value !== null && value !== undefined);
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to="/sources">Sources</BackLink>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-bold tracking-tight text-slate-900">{source.name}</h1>
          <p className="mt-1 text-sm text-slate-600">{source.integration_label} source</p>
        </div>
        <div className="flex gap-3">
          <EditDeleteLinks editTo={`/sources/edit/${source.id}`} />
        </div>
      </div>
      <dl className="card divide-y divide-slate-100">
        <NameRows record={source} />
        <DetailRow label="Integration type">{source.integration_label}</DetailRow>
        <DetailRow label="Status">
          <StatusBadge status={source.status} />
        </DetailRow>
        {metadata.map(([key, value]) => (
          <DetailRow key={key} label={labels[key]!}>
            {key.endsWith("_extraction_scope") ? scopeLabel(String(value)) : key === "format" ? dataStyleLabel(String(value)) : String(value)}
          </DetailRow>
        ))}
        <DetailRow label="Connectors">{source.connector_count}</DetailRow>
        <TimestampRows createdAt={source.created_at} updatedAt={source.updated_at} timeZone={timeZone} />
        {authors ? <DetailRow label="Who">{authors}</DetailRow> : null}
      </dl>
      {params.get("delete") ? (
        <DeleteDialog noun="source" record={source} consequences=" and its stored authorization will be deleted. This cannot be undone." hidden={{ id: source.id }} error={actionData?.error} />
      ) : null}
    </div>
  );
}
