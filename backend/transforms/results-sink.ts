import type { Row } from "../integrations/destinations/writer.js";

/** Result rows held before any is written: a run's whole result at the sizes most teams have (see below). */
export const RESULT_HOLD_ROWS = 20_000;
/** Rows per write once a run's result is larger than that. */
export const RESULT_BATCH_ROWS = 5_000;

/**
 * Where a program's result rows go. Up to RESULT_HOLD_ROWS in all they are held, and each table is written whole at
 * the end, one after another: a run cancelled before then leaves every table as the last run left it. A larger result
 * is written as it comes, in batches; from its first write the run no longer stops at a checkpoint (a table is
 * never left half replaced), so Cancel takes effect when it ends.
 */
export class ResultSink {
  private readonly held = new Map<string, Row[]>();
  private readonly counts = new Map<string, number>();
  private heldRows = 0;
  private streaming = false;

  constructor(
    private readonly suffixes: readonly string[],
    private readonly writeRows: (suffix: string, rows: Row[]) => Promise<void>,
    private readonly limits = { hold: RESULT_HOLD_ROWS, batch: RESULT_BATCH_ROWS },
  ) {}

  /** Whether rows have been written already. */
  get writing(): boolean {
    return this.streaming;
  }

  async write(suffix: string, rows: Row[]): Promise<void> {
    if (!this.suffixes.includes(suffix)) throw new Error(`The template has no output ${suffix}`);
    if (rows.length === 0) return;
    const held = this.held.get(suffix) ?? [];
    held.push(...rows);
    this.held.set(suffix, held);
    this.heldRows += rows.length;
    this.counts.set(suffix, (this.counts.get(suffix) ?? 0) + rows.length);
    if (!this.streaming && this.heldRows > this.limits.hold) {
      this.streaming = true;
      for (const s of this.suffixes) await this.flush(s);
    } else if (this.streaming && held.length >= this.limits.batch) {
      await this.flush(suffix);
    }
  }

  private async flush(suffix: string): Promise<void> {
    const rows = this.held.get(suffix) ?? [];
    this.held.delete(suffix);
    this.heldRows -= rows.length;
    for (let i = 0; i < rows.length; i += this.limits.batch) await this.writeRows(suffix, rows.slice(i, i + this.limits.batch));
  }

  /**
   * Writes what is left of each output, in order; `done(suffix, rows)` follows each table's last write. `between`
   * runs before each table while nothing was written yet (the run's checkpoint).
   */
  async finish(between: () => void, done: (suffix: string, rows: number) => Promise<void>): Promise<void> {
    for (const suffix of this.suffixes) {
      if (!this.streaming) between();
      await this.flush(suffix);
      await done(suffix, this.counts.get(suffix) ?? 0);
    }
  }
}
