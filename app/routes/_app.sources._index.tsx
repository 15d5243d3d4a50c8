import { providersInWords } from "@contract/integrations/sources";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { Source } from "@contract/sources";
import { RecordList } from "~/components/ui/record-list";
import { listData, loadListPage } from "~/services/lists.server";
import { useTimeZone } from "~/root";

export const meta: MetaFunction = () => [{ title: "Sources · Tributary" }];

export async function loader(args: LoaderFunctionArgs) {
  // The providers' names come from the source manifests, which hold every source's form schemas: the loader says them.
  const page = await loadListPage(args, "sources", "Failed to fetch sources", (row: Source) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: row.created_at,
    connector_count: row.connector_count,
    integration_label: row.integration_label,
    status: row.status,
  }));
  return listData({ ...page, providers: providersInWords(",") });
}

export default function Sources() {
  const data = useLoaderData<typeof loader>();
  return (
    <RecordList
      data={data}
      timeZone={useTimeZone()}
      path="sources"
      title="Sources"
      description="The meeting and e-mail accounts Tributary reads from."
      noun="source"
      emptyBody={`Connect ${data.providers} or the data generator to start bringing data in.`}
    />
  );
}
