import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { Destination } from "@contract/destinations";
import { destinationKindsInWords } from "@contract/integrations/destination-words";
import { RecordList } from "~/components/ui/record-list";
import { listData, loadListPage } from "~/services/lists.server";
import { useTimeZone } from "~/root";

export const meta: MetaFunction = () => [{ title: "Destinations · Tributary" }];

export async function loader(args: LoaderFunctionArgs) {
  const page = await loadListPage(args, "destinations", "Failed to fetch destinations", (row: Destination) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: row.created_at,
    connector_count: row.connector_count,
    integration_label: row.integration_label,
    status: row.status,
  }));
  return listData({ ...page, destinationKinds: destinationKindsInWords() });
}

export default function Destinations() {
  const data = useLoaderData<typeof loader>();
  return (
    <RecordList
      data={data}
      timeZone={useTimeZone()}
      path="destinations"
      title="Destinations"
      description="The buckets and warehouses your data lands in."
      noun="destination"
      emptyBody={`Add a destination to send data to: ${data.destinationKinds}.`}
    />
  );
}
