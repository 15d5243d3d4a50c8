import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { ALERT_MESSAGES as M, alertSettingsBodySchema, isWebhookMessage, type AlertSettings } from "@contract/alerts";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { CopyButton } from "~/components/ui/copy-button";
import { DateTime } from "~/components/date-time";
import { ErrorBlock } from "~/components/ui/error-block";
import { Field } from "~/components/ui/field";
import { FormBanner } from "~/components/ui/form-banner";
import { StatusBadge } from "~/components/ui/status-badge";
import { TableHead } from "~/components/table-head";
import { useTimeZone } from "~/root";
import { loadAlertSettings, resendConfirmation, rollSigningSecret, saveAlertSettings } from "~/services/alerts.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Alerts · Tributary" }];

/** The page shows the webhook signing secret: never kept by a browser's or a proxy's cache (finding F7). */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const outcome = await loadAlertSettings(request);
  const query = new URL(request.url).searchParams;
  const saved = query.get("saved") === "1";
  const rolled = query.get("rolled") === "1";
  const confirmRoll = query.get("roll") === "1";
  const confirmation = CONFIRMATIONS.find((c) => c === query.get("confirmation")) ?? null;
  return outcome.ok
    ? { settings: outcome.data, error: null, saved, rolled, confirmRoll, confirmation }
    : { settings: null as AlertSettings | null, error: M.fetchFailed as string, saved: false, rolled: false, confirmRoll: false, confirmation: null };
}

/** What saving (or Send a new link) did about confirming the address, as the page's query says it. */
const CONFIRMATIONS = ["sent", "limited", "failed"] as const;

/**
 * PUT /alerts/settings with the parsed form; every problem at its field and in the banner, the backend's too. The
 * Roll signing secret dialog posts `intent=roll` instead.
 */
export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readForm(request);
  if (form.get("intent") === "confirm-email") {
    const sent = await resendConfirmation(request);
    if (sent.ok) return redirect("/settings/alerts?confirmation=sent");
    return redirect(`/settings/alerts?confirmation=${sent.status === 429 ? "limited" : "failed"}`);
  }
  if (form.get("intent") === "roll") {
    const rolled = await rollSigningSecret(request);
    if (!rolled.ok) return Response.json({ rollError: rolled.status >= 500 ? M.rollFailed : rolled.message }, { status: rolled.status === 409 ? 409 : 400 });
    return redirect("/settings/alerts?rolled=1");
  }
  const submission = parseWithZod(form, { schema: alertSettingsBodySchema });
  if (submission.status !== "success") return Response.json({ result: submission.reply() }, { status: 400 });
  const outcome = await saveAlertSettings(request, submission.value);
  if (!outcome.ok) {
    const message = outcome.status >= 500 ? M.saveFailed : outcome.message;
    const reply = isWebhookMessage(message) ? submission.reply({ fieldErrors: { webhook_url: [message] } }) : submission.reply({ formErrors: [message] });
    return Response.json({ result: reply }, { status: 400 });
  }
  const confirmation = (outcome.data as AlertSettings & { confirmation?: string }).confirmation;
  return redirect(`/settings/alerts?saved=1${confirmation ? `&confirmation=${confirmation}` : ""}`);
}

const EVENT_LABELS: Record<string, string> = {
  "sync.failed": "Sync failed",
  "sync.warning": "Sync failing repeatedly",
  "sync.recovered": "Sync recovered",
  "connector.paused": "Connector paused",
  "transform.failed": "Transform failed",
  "transform.warning": "Transform failing repeatedly",
  "transform.recovered": "Transform recovered",
};

function Deliveries({ deliveries }: { deliveries: AlertSettings["deliveries"] }) {
  const timeZone = useTimeZone();
  return (
    <section aria-labelledby="deliveries" className="mt-8">
      <h2 id="deliveries" className="mb-3 text-lg font-semibold text-slate-900">
        Recent alerts
      </h2>
      {deliveries.length === 0 ? (
        <p className="text-sm text-slate-600">No alerts sent yet.</p>
      ) : (
        <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label="Recent alerts">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">Alerts sent, newest first</caption>
            <TableHead cell="px-4 py-3" labels={["Sent", "Alert", "Channel", "To", "Status", "Attempts", "Last error"]} />
            <tbody className="divide-y divide-slate-100">
              {deliveries.map((d) => (
                <tr key={d.id}>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <DateTime value={d.created_at} timeZone={timeZone} />
                  </td>
                  <td className="px-4 py-3">{EVENT_LABELS[d.event] ?? d.event}</td>
                  <td className="px-4 py-3">{d.channel === "email" ? "E-mail" : "Webhook"}</td>
                  <td className="max-w-xs px-4 py-3 break-all">{d.target}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <StatusBadge status={d.status} />
                  </td>
                  <td className="px-4 py-3">{d.attempts}</td>
                  <td className="max-w-xs px-4 py-3 break-words text-red-800">{d.last_error ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * Finding F3: what confirming the saved address needs. A link just sent (or not, over the hour's limit), and while the
 * address waits for confirmation, a way to send a new link.
 */
function EmailConfirmation({ settings, confirmation }: { settings: AlertSettings; confirmation: (typeof CONFIRMATIONS)[number] | null }) {
  const navigation = useNavigation();
  if (!settings.email_available || !settings.email) return null;
  const waiting = !settings.email_confirmed;
  if (!waiting && !confirmation) return null;
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "confirm-email";
  const tone = confirmation === "sent" || !waiting ? "border-sky-200 bg-sky-50 text-sky-900" : "border-amber-200 bg-amber-50 text-amber-900";
  return (
    <div data-testid="email-confirmation" className={`mb-6 rounded-lg border px-4 py-3 text-sm ${tone}`}>
      <p>
        {confirmation === "sent"
          ? M.confirmationSent(settings.email)
          : confirmation === "limited"
            ? M.confirmationLimited
            : confirmation === "failed"
              ? M.confirmationFailed
              : `Alert e-mails to ${settings.email} wait for the address to be confirmed: open the link we sent there.`}
      </p>
      {waiting ? (
        <Form method="post" className="mt-2">
          <button type="submit" name="intent" value="confirm-email" className="btn-secondary" disabled={sending}>
            {sending ? "Sending..." : "Send a new link"}
          </button>
        </Form>
      ) : null}
    </div>
  );
}

/** Issue 51 item 5: the address is the member's own; the webhook and thresholds are the workspace's. */
const OWN_ADDRESS = "Alerts about this workspace go to this address, for you only; each member sets their own.";
const SHARED = "Shared by every member of this workspace.";

export default function AlertSettingsPage() {
  const { settings, error, saved, rolled, confirmRoll, confirmation } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ result?: SubmissionResult<string[]>; rollError?: string }>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "alert-settings",
    lastResult: actionData?.result ?? null,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: alertSettingsBodySchema }),
  });
  if (!settings) {
    return (
      <div className="mx-auto max-w-3xl">
        <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">Alerts</h1>
        <ErrorBlock message={error ?? M.fetchFailed} />
      </div>
    );
  }
  const typed = actionData?.result?.initialValue ?? null;
  const value = (name: "email" | "webhook_url" | "warn_after" | "pause_after") => {
    const t = typed?.[name];
    return typeof t === "string" ? t : String(settings[name]);
  };
  const errorOf = (name: keyof typeof fields) => fields[name].errors?.[0];
  const busy = navigation.state === "submitting";
  const banner = [...(form.errors ?? []), ...(["email", "webhook_url", "warn_after", "pause_after"] as const).flatMap((n) => fields[n].errors ?? [])];
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Alerts</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        Tributary tells you when a sync or a transform fails, when it recovers, and when a connector keeps failing or is paused because of it.
      </p>
      <FormBanner errors={banner} />
      {saved && banner.length === 0 ? (
        <p role="status" className="mb-6 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
          Alert settings saved.
        </p>
      ) : null}
      <EmailConfirmation settings={settings} confirmation={confirmation} />
      {/* Drawn again from the saved values after each save (the email trimmed, say). */}
      <Form method="post" {...getFormProps(form)} noValidate className="card space-y-5 p-6" key={settings.updated_at ?? "new"}>
        <Field
          name="email"
          label="E-mail address"
          type="email"
          idPrefix="alerts"
          autoComplete="email"
          defaultValue={value("email")}
          error={errorOf("email")}
          hint={`${
            !settings.email_available
              ? M.emailUnavailable
              : settings.email && settings.email_confirmed
                ? "Alerts are e-mailed here (confirmed). Leave it empty for no e-mails."
                : "Alerts are e-mailed here once you confirm the address from the link we send it. Leave it empty for no e-mails."
          } ${OWN_ADDRESS}`}
        />
        <Field
          name="webhook_url"
          label="Webhook URL"
          type="url"
          idPrefix="alerts"
          placeholder="https://example.com/hooks/tributary"
          defaultValue={value("webhook_url")}
          error={errorOf("webhook_url")}
          hint={`Alerts are posted here as JSON. It must be an https URL on the public internet. Leave it empty for no webhook. ${SHARED}`}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            name="warn_after"
            label="Warn after failures in a row"
            idPrefix="alerts"
            inputMode="numeric"
            defaultValue={value("warn_after")}
            error={errorOf("warn_after")}
            hint={`A warning is sent when a sync or transform has failed this many times in a row. ${SHARED}`}
          />
          <Field
            name="pause_after"
            label="Pause a connector after failures in a row"
            idPrefix="alerts"
            inputMode="numeric"
            defaultValue={value("pause_after")}
            error={errorOf("pause_after")}
            hint={`The connector's schedule is paused after this many failed syncs in a row, and you are told so. ${SHARED}`}
          />
        </div>
        <div className="flex justify-end border-t border-slate-200 pt-5">
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Saving..." : "Save"}
          </button>
        </div>
      </Form>
      <section aria-labelledby="signing" className="card mt-8 space-y-3 p-6">
        <h2 id="signing" className="text-lg font-semibold text-slate-900">
          Webhook signature
        </h2>
        <p className="text-sm text-slate-700">
          Every webhook carries a <code className="rounded bg-slate-100 px-1">{settings.signature_header}</code> header of the form{" "}
          <code className="rounded bg-slate-100 px-1">t=&lt;unix time&gt;,v1=&lt;signature&gt;</code>. The signature is the hex HMAC-SHA256 of the time, a dot and the
          request body, keyed with your signing secret. Compute it yourself and compare before you trust a request.
        </p>
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="font-medium text-slate-800">Header</dt>
            <dd className="mt-1 font-mono text-slate-900">{settings.signature_header}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-800">Signing secret</dt>
            <dd className="mt-1 flex flex-wrap items-center gap-3">
              {settings.signing_secret ? (
                <>
                  <code className="rounded bg-slate-100 px-2 py-1 font-mono break-all text-slate-900" data-testid="signing-secret">
                    {settings.signing_secret}
                  </code>
                  <CopyButton text={() => settings.signing_secret ?? ""} label="Copy secret" />
                  <Link to="/settings/alerts?roll=1" className="btn-secondary" preventScrollReset>
                    Roll signing secret
                  </Link>
                </>
              ) : (
                <span className="text-slate-600">Save your settings once to get a signing secret.</span>
              )}
            </dd>
          </div>
        </dl>
      </section>
      {rolled && !confirmRoll ? (
        <p role="status" className="mt-4 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
          {M.secretRolled}
        </p>
      ) : null}
      <Deliveries deliveries={settings.deliveries} />
      {confirmRoll || actionData?.rollError ? (
        <ConfirmDialog
          title="Roll the signing secret?"
          body="A new signing secret replaces this one at once: webhooks are signed with the new secret only, so a receiver still checking the old one will refuse them until you give it the new one."
          confirmLabel="Roll secret"
          busyLabel="Rolling..."
          cancelTo="/settings/alerts"
          hidden={{ intent: "roll" }}
          error={actionData?.rollError ?? null}
        />
      ) : null}
    </div>
  );
}
