import { redirect, type LoaderFunctionArgs, type ActionFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import { CONNECTOR_MESSAGES } from "@contract/connectors";
import { TRANSFORM_MESSAGES } from "@contract/transforms";
import { isScheduleTimeZone, SCHEDULE_MESSAGES as M, scheduleBodySchema, TIME_ZONES } from "@contract/schedules";
import { currentZoneName, timeZoneChoices, type ZoneChoice } from "@contract/time-zones";
import { readTimeZone } from "~/components/date-time";
import type { ScheduleFormRecord } from "~/components/schedule-form";
import { loadConnector } from "./connectors.server";
import { readForm } from "./form.server";
import { isRecordId, pageData } from "./records.server";
import { previewSchedule, saveSchedule, type ScheduledKind } from "./schedules.server";
import { requireUser } from "./session.server";
import { loadTransform } from "./transforms.server";

/** The schedule page of a connector or a transform (/connectors/details/:id/schedule, /transforms/details/:id/schedule). */

const FAILED = { connectors: CONNECTOR_MESSAGES.fetchConnectorFailed, transforms: TRANSFORM_MESSAGES.loadFailed } as const;
const NOT_FOUND = { connectors: CONNECTOR_MESSAGES.notFound, transforms: TRANSFORM_MESSAGES.notFound } as const;

async function loadRecord(request: Request, kind: ScheduledKind, id: string) {
  if (!isRecordId(id)) return { ok: false, status: 404 } as const;
  const outcome = kind === "connectors" ? await loadConnector(request, id) : await loadTransform(request, id);
  if (!outcome.ok) return outcome;
  const r = outcome.data;
  const record: ScheduleFormRecord = {
    id: r.id,
    name: r.name,
    frequency: r.frequency ?? "daily",
    schedule: r.schedule ?? null,
    next_run_at: r.next_run_at ?? null,
    paused: "paused" in r ? (r.paused ?? false) : false,
  };
  return { ok: true, record } as const;
}

/** The record, the time zones to choose from (the reader's own among them) and whether it was just saved. */
export async function scheduleLoader({ request, params }: LoaderFunctionArgs, kind: ScheduledKind) {
  await requireUser(request);
  const query = new URL(request.url).searchParams;
  // With JavaScript the page asks for the next run of what is typed as a GET (a load): a save started meanwhile
  // cancels it, where a posted preview still answering after the save would hand the page its data from before.
  if (query.get("intent") === "preview" && query.get("live") === "1") return previewAnswer(request, kind, params.id ?? "", query, true);
  const userZone = readTimeZone(request.headers.get("cookie"));
  const ownZone = isScheduleTimeZone(userZone) ? currentZoneName(userZone) : "UTC";
  const names = TIME_ZONES.includes(ownZone) ? [...TIME_ZONES] : [...TIME_ZONES, ownZone].sort();
  // Each with its offset now (a label: what is posted is the zone's name).
  const zones = timeZoneChoices(names, new Date());
  const defaultZone = ownZone;
  const saved = query.get("saved") === "1";
  const outcome = await loadRecord(request, kind, params.id ?? "");
  if (!outcome.ok) {
    const notFound = outcome.status === 404;
    return pageData({ record: null, zones: [] as ZoneChoice[], defaultZone, saved: false, error: notFound ? NOT_FOUND[kind] : FAILED[kind] }, notFound);
  }
  return pageData({ record: outcome.record, zones, defaultZone, saved, error: null as string | null }, false);
}

/**
 * Save (the default) or Show next run (intent "preview", which the page also sends as the user types when JavaScript
 * runs): the form parsed with the contract's schedule schema, every problem at its field; only the chosen kind's
 * fields are read.
 */
export async function scheduleAction({ request, params }: ActionFunctionArgs, kind: ScheduledKind) {
  await requireUser(request);
  const id = params.id ?? "";
  const form = await readForm(request);
  if (form.get("intent") === "preview") return previewAnswer(request, kind, id, form, false);
  const submission = parseWithZod(form, { schema: scheduleBodySchema });
  if (submission.status !== "success") return Response.json({ result: submission.reply(), preview: null }, { status: 400 });
  const outcome = await saveSchedule(request, kind, id, submission.value);
  if (!outcome.ok) return Response.json({ result: submission.reply({ formErrors: [outcome.status >= 500 ? M.saveFailed : outcome.message] }), preview: null }, { status: status(outcome.status) });
  return redirect(`/${kind}/details/${encodeURIComponent(id)}/schedule?saved=1`);
}

const status = (code: number) => (code === 404 ? 404 : 400);

/**
 * The next run of a schedule as typed: Show next run (posted, without JavaScript) or the live preview (live, a GET
 * while the user types), which answers what is not yet valid with 200: half a cron expression is no bad request
 * there, and the browser would log each 400.
 */
async function previewAnswer(request: Request, kind: ScheduledKind, id: string, form: FormData | URLSearchParams, live: boolean) {
  const submission = parseWithZod(form, { schema: scheduleBodySchema });
  if (submission.status !== "success") return Response.json({ result: submission.reply(), preview: null }, { status: live ? 200 : 400 });
  const outcome = await previewSchedule(request, kind, id, submission.value);
  if (!outcome.ok) return Response.json({ result: submission.reply({ formErrors: [outcome.status >= 500 ? M.previewFailed : outcome.message] }), preview: null }, { status: status(outcome.status) });
  return Response.json({ result: submission.reply(), preview: outcome.data });
}
