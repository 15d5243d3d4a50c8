import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { integrationLabel } from "@contract/sources";
import { SourceCreateForm } from "~/components/source-create-form";
import { requireUser } from "~/services/session.server";
import { sourceCreateAction, sourceCreateLoader } from "~/services/sources.server";

export const meta: MetaFunction = ({ params }) => [{ title: `Create ${integrationLabel(params.integrationType ?? "") ?? ""} Source · Tributary` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return sourceCreateLoader(request, await requireUser(request), params.integrationType ?? null);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return sourceCreateAction(request, await requireUser(request), params.integrationType ?? null);
}

export default function CreateSourceOfType() {
  return <SourceCreateForm />;
}
