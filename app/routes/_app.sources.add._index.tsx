import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { SourceCreateForm } from "~/components/source-create-form";
import { requireUser } from "~/services/session.server";
import { sourceCreateAction, sourceCreateLoader } from "~/services/sources.server";

export const meta: MetaFunction = () => [{ title: "Create Source · Tributary" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return sourceCreateLoader(request, await requireUser(request), null);
}

export async function action({ request }: ActionFunctionArgs) {
  return sourceCreateAction(request, await requireUser(request), null);
}

export default function CreateSource() {
  return <SourceCreateForm />;
}
