import { useEffect, useRef, useState } from "react";
import { Form, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { describeSchedule, INTERVAL_UNITS, SCHEDULE_CHOICES, type Schedule, type ScheduleChoice } from "@contract/schedule-words";
import { scheduleInWords } from "@contract/cron-words";
import { currentZoneName, type ZoneChoice } from "@contract/time-zones";
import { BackLink } from "~/components/ui/back-link";
import { ErrorBlock } from "~/components/ui/error-block";
import { controlClasses, controlProps, Field } from "~/components/ui/field";
import { FormBanner } from "~/components/ui/form-banner";
import { DateTime } from "~/components/date-time";
import { useTimeZone } from "~/root";

/**
 * The schedule form of a connector or a transform: how it runs (its Daily/Hourly frequency, every N minutes or
 * hours, every day at a time, a cron expression, manual only), the chosen kind's fields, and the next run. Without
 * JavaScript every kind's fields show (only the chosen kind's are read) and "Show next run" posts the form for its
 * next run; with JavaScript only the chosen kind's fields show and the next run follows what is typed.
 */

/** What the page knows of the record it schedules. */
export interface ScheduleFormRecord {
  id: string;
  name: string;
  frequency: string;
  schedule: Schedule | null;
  next_run_at: string | null;
  paused: boolean;
}

interface PageData {
  record: ScheduleFormRecord | null;
  zones: ZoneChoice[];
  defaultZone: string;
  saved: boolean;
  error: string | null;
}

/** What the page's action answers (a save that worked redirects instead). */
export interface ScheduleAnswer {
  result: SubmissionResult<string[]>;
  preview: { next_run_at: string | null } | null;
}

type FieldName = "kind" | "every" | "unit" | "time" | "expression" | "time_zone";
const FIELDS: FieldName[] = ["kind", "every", "unit", "time", "expression", "time_zone"];
const UNIT_LABELS = { minutes: "Minutes", hours: "Hours" } as const;
const PREFIX = "schedule";

/** The form's starting values: what was typed (the last answer's), else the saved schedule's, else defaults. */
function startingValues(record: ScheduleFormRecord, typed: Record<string, unknown> | null | undefined, defaultZone: string): Record<FieldName, string> {
  const s = record.schedule;
  const saved: Record<FieldName, string> = {
    kind: s?.kind ?? "frequency",
    every: s?.kind === "interval" ? String(s.every) : "30",
    unit: s?.kind === "interval" ? s.unit : "minutes",
    time: s?.kind === "daily" ? s.time : "09:00",
    expression: s?.kind === "cron" ? s.expression : "",
    time_zone: s?.kind === "daily" || s?.kind === "cron" ? currentZoneName(s.time_zone) : defaultZone,
  };
  if (!typed) return saved;
  const pick = (name: FieldName) => (typeof typed[name] === "string" ? (typed[name] as string) : name === "kind" || name === "unit" || name === "time_zone" ? saved[name] : "");
  return Object.fromEntries(FIELDS.map((name) => [name, pick(name)])) as Record<FieldName, string>;
}

/** "Next run: …" for a next run, else why there is none. */
function NextRun({ at, none, note }: { at: string | null; none: string; note?: string }) {
  const timeZone = useTimeZone();
  return (
    <p role="status" aria-live="polite" data-testid="next-run" className="text-sm text-slate-800">
      {at ? (
        <>
          <span className="font-medium">Next run:</span> <DateTime value={at} timeZone={timeZone} /> <span className="text-slate-600">({timeZone})</span>
        </>
      ) : (
        <span className="font-medium">{none}</span>
      )}
      {note ? <span className="ml-1 text-slate-600">{note}</span> : null}
    </p>
  );
}

export function SchedulePage({ noun }: { noun: "connector" | "transform" }) {
  const { record, zones, defaultZone, saved, error } = useLoaderData<PageData>();
  const details = record ? `/${noun}s/details/${record.id}` : `/${noun}s`;
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to={details}>{record ? record.name : `${noun.charAt(0).toUpperCase()}${noun.slice(1)}s`}</BackLink>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Schedule</h1>
      {record ? (
        <>
          <p className="mt-1 mb-6 text-sm text-slate-600">
            When {record.name} runs on its own. Now: <span className="font-medium text-slate-800">{scheduleInWords(record.schedule, record.frequency)}</span>
            {record.paused ? " (the connector is paused: nothing runs on a schedule until it is resumed)" : ""}.
          </p>
          <ScheduleForm key={JSON.stringify(record.schedule)} record={record} zones={zones} defaultZone={defaultZone} saved={saved} />
        </>
      ) : (
        <div className="mt-6">
          <ErrorBlock message={error ?? "Not found"} />
        </div>
      )}
    </div>
  );
}

function ScheduleForm({ record, zones, defaultZone, saved }: { record: ScheduleFormRecord; zones: ZoneChoice[]; defaultZone: string; saved: boolean }) {
  const answer = useActionData<ScheduleAnswer>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<ScheduleAnswer>();
  const [form, fields] = useForm<Record<FieldName, string>>({ id: "schedule", lastResult: answer?.result ?? null, shouldValidate: "onSubmit" });
  const start = startingValues(record, answer?.result.initialValue, defaultZone);
  const [kind, setKind] = useState<string>(start.kind);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  // A preview answered before the page's data was loaded again (a save) is of what is now saved: not shown as unsaved.
  const [previewBeforeLoad, setPreviewBeforeLoad] = useState<ScheduleAnswer | undefined>(undefined);
  const [loaded, setLoaded] = useState(record);
  if (loaded !== record) {
    setLoaded(record);
    setPreviewBeforeLoad(fetcher.data);
  }

  // A field's error: the last submit's, else (JavaScript) the live preview's, so the field is marked as it is typed.
  const errorOf = (name: FieldName) => fields[name].errors?.[0] ?? liveFieldError(name);
  const banner = [...(form.errors ?? []), ...FIELDS.flatMap((n) => fields[n].errors ?? [])];
  const shows = (...kinds: ScheduleChoice[]) => !hydrated || kinds.includes(kind as ScheduleChoice);
  const busy = navigation.state === "submitting";
  const formProps = getFormProps(form);
  // No preview is asked for while the page is saving or loading.
  useEffect(() => {
    if (navigation.state !== "idle") clearTimeout(timer.current);
  }, [navigation.state]);

  /** With JavaScript, the next run of what is typed, asked for a moment after the typing stops. */
  const previewSoon = (formElement: HTMLFormElement) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const data = new FormData(formElement);
      data.set("intent", "preview");
      data.set("live", "1");
      // A GET (the page's loader answers it): a save started meanwhile cancels it (see scheduleLoader).
      fetcher.submit(data, { method: "get" });
    }, 300);
  };

  // The next run shown: the live preview's (JavaScript), else the posted preview's, else the saved schedule's.
  const live = hydrated && fetcher.data && fetcher.data !== previewBeforeLoad ? fetcher.data : answer?.preview ? answer : null;
  const liveError = live && !live.preview ? (Object.values(live.result.error ?? {}).flat().find(Boolean) ?? null) : null;
  function liveFieldError(name: FieldName): string | undefined {
    return live && !live.preview && live !== answer ? (live.result.error?.[name]?.[0] ?? undefined) : undefined;
  }

  return (
    <>
      <FormBanner errors={banner} focusKey={answer?.result} />
      {saved && banner.length === 0 && !answer ? (
        <p role="status" className="mb-6 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
          Schedule saved.
        </p>
      ) : null}
      <Form
        method="post"
        {...formProps}
        // A preview still waiting to be asked for would be posted beside the save: the save alone goes.
        onSubmit={(event) => {
          clearTimeout(timer.current);
          formProps.onSubmit(event);
        }}
        noValidate
        className="card space-y-6 p-6"
        onChange={(event) => {
          const target = event.target as HTMLInputElement;
          if (target.name === "kind") setKind(target.value);
          previewSoon(event.currentTarget);
        }}
      >
        <fieldset aria-describedby={errorOf("kind") ? `${PREFIX}-kind-error` : undefined}>
          <legend className="text-sm font-medium text-slate-800">How it runs</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {SCHEDULE_CHOICES.map((choice) => (
              <label key={choice.value} className="flex cursor-pointer gap-3 rounded-lg border border-slate-200 p-3 hover:bg-slate-50 has-checked:border-brand-500 has-checked:bg-brand-50">
                <input type="radio" name="kind" value={choice.value} defaultChecked={start.kind === choice.value} className="mt-0.5" />
                <span>
                  <span className="block text-sm font-medium text-slate-900">{choice.value === "frequency" ? `Its frequency (${describeSchedule(null, record.frequency)})` : choice.label}</span>
                  <span className="block text-xs text-slate-600">{choice.hint}</span>
                </span>
              </label>
            ))}
          </div>
          {errorOf("kind") ? (
            <p id={`${PREFIX}-kind-error`} className="mt-1 text-sm text-red-700">
              {errorOf("kind")}
            </p>
          ) : null}
        </fieldset>

        <div hidden={!shows("interval")} className="grid gap-5 sm:grid-cols-2">
          <Field name="every" label="Every" idPrefix={PREFIX} inputMode="numeric" defaultValue={start.every} error={errorOf("every")} hint="For every few minutes or hours: 15 minutes at least." />
          <Field name="unit" label="Unit" idPrefix={PREFIX} error={errorOf("unit")}>
            <select {...controlProps(PREFIX, "unit", errorOf("unit"))} defaultValue={start.unit} className={controlClasses}>
              {INTERVAL_UNITS.map((unit) => (
                <option key={unit} value={unit}>
                  {UNIT_LABELS[unit]}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div hidden={!shows("daily")}>
          <Field name="time" label="Time of day" type="time" idPrefix={PREFIX} defaultValue={start.time} error={errorOf("time")} hint="For every day at a time: HH:MM, in the time zone below." />
        </div>
        <div hidden={!shows("cron")}>
          <Field
            name="expression"
            label="Cron expression"
            idPrefix={PREFIX}
            placeholder="0 9 * * 1-5"
            defaultValue={start.expression}
            error={errorOf("expression")}
            hint="For a cron expression: minute, hour, day of month, month, day of week. 0 9 * * 1-5 runs at 09:00 on weekdays."
          />
        </div>
        <div hidden={!shows("daily", "cron")}>
          <Field name="time_zone" label="Time zone" idPrefix={PREFIX} error={errorOf("time_zone")} hint="For a time of day or a cron expression.">
            <select {...controlProps(PREFIX, "time_zone", errorOf("time_zone"), true)} defaultValue={start.time_zone} className={controlClasses}>
              {zones.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.label}
                </option>
              ))}
            </select>
          </Field>
        </div>

        <div className="space-y-4 border-t border-slate-200 pt-5">
          {live ? (
            liveError ? (
              <p role="status" aria-live="polite" data-testid="next-run" className="text-sm text-slate-800">
                <span className="font-medium">Next run:</span> not known until this is fixed: {liveError}
              </p>
            ) : (
              <NextRun at={live.preview?.next_run_at ?? null} none="Manual only: it never runs on a schedule." note="(not saved yet)" />
            )
          ) : (
            <NextRun at={record.next_run_at} none={record.schedule?.kind === "manual" ? "Manual only: it never runs on a schedule." : "Paused: no run until it is resumed."} />
          )}
          {/* Save first: Enter in a field saves. */}
          <div className="flex flex-row-reverse flex-wrap justify-start gap-3">
            <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
              {busy ? "Saving..." : "Save schedule"}
            </button>
            {hydrated ? null : (
              <button type="submit" name="intent" value="preview" className="btn-secondary">
                Show next run
              </button>
            )}
          </div>
        </div>
      </Form>
    </>
  );
}
