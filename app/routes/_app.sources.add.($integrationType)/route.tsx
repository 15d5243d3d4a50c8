import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import { integrationLabel, sourceFormSchema } from "@contract/sources";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { formFields, loadCreatePage, postedType, submitCreateForm } from "./create.server";
import { SourceCreateForm } from "./form";

/** Create Source (spec §2): /sources/add and /sources/add/{integrationType}, one page, so a type chosen keeps its form (and focus). */

export const meta: MetaFunction = ({ params }) => {
  const label = params.integrationType ? integrationLabel(params.integrationType) : null;
  return [{ title: `Create ${label ? `${label} ` : ""}Source · Tributary` }];
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadCreatePage(request, context, await requireUser(request), params.integrationType);
}

/**
 * Every button of the form posts here: its post read by the contract's schema for the type its select shows (which
 * the page's address may not name yet), then what the button does.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const type = postedType(form, params.integrationType);
  const submission = parseWithZod(form, { schema: sourceFormSchema(formFields(type)) });
  return submitCreateForm(request, context, user, type, submission);
}

export default function CreateSource() {
  return <SourceCreateForm />;
}
