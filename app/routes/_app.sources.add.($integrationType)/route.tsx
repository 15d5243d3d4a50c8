import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { integrationLabel } from "@contract/sources";
import { requireUser } from "~/services/session.server";
import { loadCreatePage, submitCreateForm } from "./create.server";
import { SourceCreateForm } from "./form";

/** Create Source (spec §2): /sources/add and /sources/add/{integrationType}, one page, so a type chosen keeps its form (and focus). */

export const meta: MetaFunction = ({ params }) => {
  const label = params.integrationType ? integrationLabel(params.integrationType) : null;
  return [{ title: `Create ${label ? `${label} ` : ""}Source · Tributary` }];
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadCreatePage(request, await requireUser(request), params.integrationType);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return submitCreateForm(request, await requireUser(request), params.integrationType);
}

export default function CreateSource() {
  return <SourceCreateForm />;
}
