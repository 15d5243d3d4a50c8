/**
 * Issue 52: what an incremental reader knows of the earlier syncs and tells of this one. The sync engine makes it from
 * the connector's stream states (backend/sync/state.ts) and narrows the read's window; the reader asks it, item by
 * item, whether what it lists (a recording's transcript file, a message) landed before unchanged, and downloads only
 * what did not. What the tracker learns is saved only after the read's records landed at every destination.
 */

/** Items that landed, by key: their fingerprint (a file's id and size, a message's id) and their time (ISO). */
export type LandedItems = Record<string, [fingerprint: string, at: string]>;

export interface ItemCounts {
  new: number;
  changed: number;
  skipped: number;
}

export class ReadTracker {
  private readonly seen: LandedItems = {};
  readonly counts: ItemCounts = { new: 0, changed: 0, skipped: 0 };
  private nextToken: string | null;

  /**
   * @param landed what earlier syncs landed (empty: the whole window is read, a first sync, a Re-sync or a backfill)
   * @param token the provider's change token those syncs saved (Gmail's historyId, a Graph delta link)
   */
  constructor(
    private readonly landed: LandedItems = {},
    readonly token: string | null = null,
  ) {
    this.nextToken = token;
  }

  /** True when the read starts from earlier syncs' state (false: the whole window is read). */
  get incremental(): boolean {
    return this.token !== null || Object.keys(this.landed).length > 0;
  }

  /** True when the item landed before with this fingerprint: skip it (no download). False: new or changed, read it. */
  unchanged(key: string, fingerprint: string, at: Date): boolean {
    const before = this.landed[key];
    if (!before || before[0] !== fingerprint) return false;
    // Its time as it landed: a reader that lists an item without its time (Gmail) passes a bound instead.
    this.seen[key] = [fingerprint, before[1] || at.toISOString()];
    this.counts.skipped++;
    return true;
  }

  /** The item was read and is yielded: it lands with this sync. */
  read(key: string, fingerprint: string, at: Date): void {
    if (this.seen[key]) return;
    this.seen[key] = [fingerprint, at.toISOString()];
    if (this.landed[key]) this.counts.changed++;
    else this.counts.new++;
  }

  /** The provider's change token to start from next time. */
  setToken(token: string): void {
    this.nextToken = token;
  }

  /**
   * The state to save once the read landed: the token, and the items from `since` on (those the next read's overlap
   * may list again), this read's and the earlier ones' it did not list again (they landed and are still true).
   */
  next(since: Date): { token: string | null; landed: LandedItems } {
    const landed: LandedItems = {};
    for (const [key, entry] of [...Object.entries(this.landed), ...Object.entries(this.seen)]) {
      if (Date.parse(entry[1]) >= since.getTime()) landed[key] = entry;
    }
    return { token: this.nextToken, landed };
  }
}
