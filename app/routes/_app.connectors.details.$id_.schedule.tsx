import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { SchedulePage } from "~/components/schedule-form";
import { scheduleAction, scheduleLoader } from "~/services/schedule-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Schedule · ${data?.record?.name ?? "Connector"} · Tributary` }];

export const loader = (args: LoaderFunctionArgs) => scheduleLoader(args, "connectors");
export const action = (args: ActionFunctionArgs) => scheduleAction(args, "connectors");

/** A preview of the next run saves nothing: the page's data stays as it is. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => (formData?.get("intent") === "preview" ? false : defaultShouldRevalidate);

export default function ConnectorSchedule() {
  return <SchedulePage noun="connector" />;
}
