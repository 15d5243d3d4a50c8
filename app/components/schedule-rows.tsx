import { Link } from "@remix-run/react";
import { notScheduledReason, type Schedule } from "@contract/schedule-words";
import { scheduleInWords } from "@contract/cron-words";
import { DetailRow } from "~/components/ui/detail-row";
import { DateTime } from "~/components/date-time";

/**
 * A details page's Schedule row (the schedule in words, with its Change schedule link) and Next run row (when it
 * runs next, or "Manual only", "Paused").
 */
export function ScheduleRows({ record, paused, scheduleTo, timeZone }: { record: { frequency?: string; schedule?: Schedule | null; next_run_at?: string | null }; paused: boolean; scheduleTo: string; timeZone: string }) {
  return (
    <>
      <DetailRow label="Schedule">
        <span className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <span data-testid="schedule-words">{scheduleInWords(record.schedule, record.frequency)}</span>
          <Link to={scheduleTo} className="link text-sm font-medium">
            Change schedule
          </Link>
        </span>
      </DetailRow>
      <DetailRow label="Next run">
        <span data-testid="next-run">{record.next_run_at ? <DateTime value={record.next_run_at} timeZone={timeZone} /> : paused && record.schedule?.kind !== "manual" ? "Paused" : notScheduledReason(record.schedule)}</span>
      </DetailRow>
    </>
  );
}
