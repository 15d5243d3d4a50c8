import { asc, count, eq, sql } from "drizzle-orm";
import type { Executor } from "./runs.js";
import { runLogLines } from "./schema.js";
import { redactSecrets } from "../lib/redact.js";

/**
 * A run's own log (the run details page): a few lines per attempt that our code writes from known values, each passed
 * through redactSecrets all the same (a line may quote a provider's error). Bounded per run: ordinary lines stop at
 * RUN_LOG_SOFT_CAP with one line saying the log was cut; a run's closing lines (an attempt's failure, the outcome) may
 * still go in up to RUN_LOG_MAX_LINES, so the end of a long run is never lost. A writer buffers its lines and inserts
 * them in one statement per second (and at the end): writing the log costs a sync next to nothing.
 */

export type RunLogKind = "sync" | "transform";
export type RunLogLevel = "info" | "warn" | "error";

/** One line of a run's log, as stored. */
export interface RunLogRecord {
  at: Date;
  level: RunLogLevel;
  message: string;
}

/** Lines kept of one run, at most (every attempt together). */
export const RUN_LOG_MAX_LINES = 500;
/** Lines kept for the closing lines of a run whose ordinary lines were cut. */
const CLOSING_RESERVE = 12;
export const RUN_LOG_SOFT_CAP = RUN_LOG_MAX_LINES - CLOSING_RESERVE;
/** The longest line kept, in characters (a provider's error can be a whole HTML page). */
const MAX_MESSAGE = 2_000;

export const LOG_CUT_MESSAGE = `The log was cut here: a run keeps at most ${RUN_LOG_SOFT_CAP} lines (its closing lines aside).`;

const runColumn = (kind: RunLogKind) => (kind === "sync" ? runLogLines.syncRunId : runLogLines.transformRunId);
const runField = (kind: RunLogKind) => (kind === "sync" ? "syncRunId" : "transformRunId");

/** A line as stored: redacted, one line of at most MAX_MESSAGE characters. */
export function cleanLine(message: string): string {
  const text = redactSecrets(message).replace(/\s*\n\s*/g, " ⏎ ");
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

interface PendingLine {
  at: Date;
  level: RunLogLevel;
  message: string;
}

/** Where the lines of a writer go; failures to write are told here and never thrown into the run. */
export interface RunLogWriterOptions {
  flushEveryMs?: number;
  onError?: (error: unknown) => void;
}

/** What a run's code writes to its log: an ordinary line (may be cut) or a closing line. */
export interface RunLogSink {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** One attempt's writer of a run's log: buffered, flushed every second and on close. */
export class RunLogWriter implements RunLogSink {
  private buffer: PendingLine[] = [];
  private cut: boolean;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Executor,
    private readonly kind: RunLogKind,
    private readonly runId: string,
    /** Lines the run has already (an earlier attempt's). */
    private lines: number,
    private readonly options: RunLogWriterOptions = {},
  ) {
    this.cut = lines >= RUN_LOG_SOFT_CAP;
    this.timer = setInterval(() => void this.flush(), options.flushEveryMs ?? 1_000);
    this.timer.unref();
  }

  info(message: string): void {
    this.add("info", message, false);
  }
  warn(message: string): void {
    this.add("warn", message, false);
  }
  error(message: string): void {
    this.add("error", message, false);
  }
  /** A closing line (an attempt's end, the run's outcome): kept past the ordinary lines' cap. */
  closing(level: RunLogLevel, message: string): void {
    this.add(level, message, true);
  }

  private add(level: RunLogLevel, message: string, closing: boolean): void {
    if (this.lines >= RUN_LOG_MAX_LINES) return;
    if (!closing) {
      if (this.cut) return;
      if (this.lines >= RUN_LOG_SOFT_CAP - 1) {
        this.cut = true;
        this.push("warn", LOG_CUT_MESSAGE);
        return;
      }
    }
    this.push(level, cleanLine(message));
  }

  private push(level: RunLogLevel, message: string): void {
    this.lines++;
    this.buffer.push({ at: new Date(), level, message });
  }

  /** Writes the buffered lines (one INSERT); answers once they and every earlier flush are in. */
  flush(): Promise<void> {
    if (this.buffer.length === 0) return this.writing;
    const lines = this.buffer;
    this.buffer = [];
    const field = runField(this.kind);
    this.writing = this.writing.then(async () => {
      try {
        await this.db.insert(runLogLines).values(lines.map((l) => ({ [field]: this.runId, at: l.at, level: l.level, message: l.message })));
      } catch (error) {
        this.options.onError?.(error);
      }
    });
    return this.writing;
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

/** The writer of one attempt of a run, counting the lines its earlier attempts left. */
export async function openRunLog(db: Executor, kind: RunLogKind, runId: string, options?: RunLogWriterOptions): Promise<RunLogWriter> {
  const [row] = await db.select({ n: count() }).from(runLogLines).where(eq(runColumn(kind), runId));
  return new RunLogWriter(db, kind, runId, Number(row?.n ?? 0), options);
}

/**
 * One line written at once, outside any attempt (a run queued, a run whose worker stopped): one statement, which
 * adds nothing once the run has RUN_LOG_MAX_LINES lines.
 */
export async function appendRunLog(db: Executor, kind: RunLogKind, runId: string, level: RunLogLevel, message: string): Promise<void> {
  const column = runColumn(kind);
  const name = kind === "sync" ? sql.raw(`"sync_run_id"`) : sql.raw(`"transform_run_id"`);
  await db.execute(sql`
    INSERT INTO ${runLogLines} (${name}, "level", "message")
    SELECT ${runId}::uuid, ${level}, ${cleanLine(message)}
    WHERE (SELECT count(*) FROM ${runLogLines} WHERE ${column} = ${runId}::uuid) < ${RUN_LOG_MAX_LINES}`);
}

/** The same first line of many new runs, in one statement (a scheduler pass queuing them). */
export async function appendRunLogMany(db: Executor, kind: RunLogKind, runIds: string[], level: RunLogLevel, message: string): Promise<void> {
  if (!runIds.length) return;
  const name = kind === "sync" ? sql.raw(`"sync_run_id"`) : sql.raw(`"transform_run_id"`);
  const ids = sql.join(runIds.map((id) => sql`${id}`), sql`, `);
  await db.execute(sql`INSERT INTO ${runLogLines} (${name}, "level", "message") SELECT id, ${level}, ${cleanLine(message)} FROM unnest(ARRAY[${ids}]::uuid[]) AS id`);
}

/** A run's lines, oldest first (at most RUN_LOG_MAX_LINES: the writers keep no more). */
export async function readRunLog(db: Executor, kind: RunLogKind, runId: string): Promise<RunLogRecord[]> {
  const rows = await db
    .select({ at: runLogLines.at, level: runLogLines.level, message: runLogLines.message })
    .from(runLogLines)
    .where(eq(runColumn(kind), runId))
    .orderBy(asc(runLogLines.id))
    .limit(RUN_LOG_MAX_LINES + 1);
  return rows.map((r) => ({ at: r.at, level: r.level as RunLogLevel, message: r.message }));
}
