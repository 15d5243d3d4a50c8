import { Form, useActionData, useNavigation } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { backfillFormSchema, todayIn } from "@contract/run-operations";
import type { SyncRun } from "@contract/connectors";
import { formatDay } from "~/components/date-time";
import { Field } from "~/components/ui/field";
import { FormBanner } from "~/components/ui/form-banner";
import { titleCase } from "~/components/ui/status-badge";
import { useTimeZone } from "~/root";

/**
 * A connector's Backfill (issue 27): a one-off sync of the days From–To, whole days in the reader's time zone, beyond
 * the lookback window. The page's action answers `{ result, intent: "backfill" }` when it refuses the form.
 */
export function BackfillForm() {
  const timeZone = useTimeZone();
  const answer = useActionData<{ result?: SubmissionResult<string[]>; intent?: string }>();
  const lastResult = answer?.intent === "backfill" ? (answer.result ?? null) : null;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "backfill";
  const [form, fields] = useForm({
    id: "backfill",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: backfillFormSchema(timeZone) }),
  });
  const typed = (name: "from" | "to") => {
    const value = lastResult?.initialValue?.[name];
    return typeof value === "string" ? value : undefined;
  };
  const today = todayIn(timeZone);
  return (
    <section aria-labelledby="backfill" className="mt-8">
      <h2 id="backfill" className="mb-1 text-lg font-semibold text-slate-900">
        Backfill
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        {`Sync a range of days once, beyond the lookback window: at most 366 days, up to today, whole days in your time zone (${timeZone}). Records already synced are not duplicated.`}
      </p>
      <FormBanner errors={form.errors} focusKey={lastResult} />
      <Form method="post" {...getFormProps(form)} noValidate className="card flex flex-col gap-4 p-6 sm:flex-row sm:items-start">
        <input type="hidden" name="intent" value="backfill" />
        <div className="grid flex-1 gap-4 sm:grid-cols-2">
          <Field name="from" label="From" type="date" idPrefix="backfill" max={today} defaultValue={typed("from")} error={fields.from.errors?.[0]} />
          <Field name="to" label="To" type="date" idPrefix="backfill" max={today} defaultValue={typed("to") ?? today} error={fields.to.errors?.[0]} />
        </div>
        <button type="submit" className="btn-primary sm:mt-6" disabled={busy}>
          {busy ? "Queuing..." : "Backfill"}
        </button>
      </Form>
    </section>
  );
}

/** A sync run's trigger ("Manual", "Schedule"), and a backfill's days ("Backfill Oct 1, 2026 – Oct 30, 2026"). */
export function RunTrigger({ run }: { run: SyncRun }) {
  const timeZone = useTimeZone();
  if (run.trigger !== "backfill" || !run.range_from || !run.range_to) return <>{titleCase(run.trigger)}</>;
  // The range ends before range_to: its last day is the one just before.
  const last = new Date(new Date(run.range_to).getTime() - 1);
  return (
    <>
      Backfill
      <span className="block text-xs text-slate-600">{`${formatDay(run.range_from, timeZone)} – ${formatDay(last, timeZone)}`}</span>
    </>
  );
}
