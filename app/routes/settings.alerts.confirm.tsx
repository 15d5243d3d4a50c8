import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { ALERT_MESSAGES as M, confirmEmailBodySchema } from "@contract/alerts";
import { LegalPage } from "~/components/legal-page";
import { confirmEmail } from "~/services/alerts.server";
import { readForm } from "~/services/form.server";

/**
 * The page an alert address's confirmation link opens (finding F3): whoever reads the address presses Confirm, signed
 * in or not. Opening the link changes nothing (a mail scanner that follows links confirms nothing); the button does.
 */

export const meta: MetaFunction = () => [{ title: "Confirm alert e-mails · Tributary" }, { name: "robots", content: "noindex" }];

/** The token is in the address: never kept by a cache, never sent to another site as a referrer (same-origin: the form's own post keeps its Origin). */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "same-origin" });

export function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: token.length <= 200 ? token : "" };
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: confirmEmailBodySchema });
  if (submission.status !== "success") return Response.json({ confirmed: null, error: M.confirmLinkInvalid }, { status: 400 });
  const outcome = await confirmEmail(request, submission.value.token);
  if (outcome.ok) return { confirmed: outcome.data.email, error: null };
  return Response.json({ confirmed: null, error: outcome.status === 400 ? M.confirmLinkInvalid : M.confirmFailed }, { status: outcome.status === 400 ? 400 : 502 });
}

export default function ConfirmAlertEmail() {
  const { token } = useLoaderData<typeof loader>();
  const answer = useActionData<{ confirmed: string | null; error: string | null }>();
  const busy = useNavigation().state === "submitting";
  return (
    <LegalPage title="Confirm alert e-mails">
      {answer?.confirmed ? (
        <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-green-800">
          {M.confirmed(answer.confirmed)}
        </p>
      ) : !token || answer?.error ? (
        <>
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
            {answer?.error ?? M.confirmLinkInvalid}
          </p>
          {/* Where the sentence sends the reader: Send a new link is on the alert settings (sign-in first when signed out). */}
          <p>
            <Link to="/settings/alerts" className="link font-medium">
              Go to alert settings
            </Link>
          </p>
        </>
      ) : (
        <>
          <p>Someone asked Tributary to e-mail this address when their connectors or transforms fail. Confirm to receive those alerts.</p>
          <p>If it was not you, close this page: nothing is sent to an address that was not confirmed.</p>
          <Form method="post">
            <input type="hidden" name="token" value={token} />
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? "Confirming..." : "Confirm"}
            </button>
          </Form>
        </>
      )}
    </LegalPage>
  );
}
