import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { CONNECTOR_MESSAGES as M } from "@contract/connectors";
import { BackLink } from "~/components/ui/back-link";
import { createConnector } from "~/services/connectors.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { cascade, readValues } from "./cascade.server";
import { ConnectorCreateForm } from "./connector-form";
import { cascadeRules, createFormSchema, type PageData } from "./schema";

export const meta: MetaFunction = () => [{ title: "Create Connector · Tributary" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return cascade(request, readValues(new URL(request.url).searchParams));
}

/** A refused post answers the page's data with it: the page's address (after a POST) holds none of the choices. */
type ActionData = PageData & { result: SubmissionResult<string[]> };

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const formData = await readForm(request);
  const data = await cascade(request, { ...readValues(formData), prev_source: null, prev_platform: null });
  const submission = parseWithZod(formData, { schema: createFormSchema(cascadeRules(data)) });
  if (submission.status !== "success") return Response.json({ ...data, result: submission.reply() } satisfies ActionData, { status: 400 });
  const outcome = await createConnector(request, submission.value);
  if (!outcome.ok) return Response.json({ ...data, result: submission.reply({ formErrors: [M.createFailed(outcome.message)] }) } satisfies ActionData, { status: 400 });
  return redirect("/connectors");
}

export default function CreateConnector() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to="/connectors">Connectors</BackLink>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">Create Connector</h1>
      <ConnectorCreateForm data={actionData ?? loaded} lastResult={actionData?.result ?? null} />
    </div>
  );
}
