import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets its heap grow past what was live after a full collection before it collects again, in
 * percent, for processes that run syncs and transforms. V8's own factor (up to 4× when it allocates fast)
 * let the sync's heap reach ~250 MiB at 100× volume when ~60 MiB was live: a sync allocates a batch's
 * rows and files at a high rate, and nearly all of it dies a batch later. Measured (bench/sync.ts on
 * tmpfs, 1× lines/s · 100× peak RSS): V8's own 47k · 470 MiB; 100%: 42k · 371; 75%: 44k · 367;
 * 50%: 42k · 363; 20%: 37k · ~340 (full collections of a small heap, too often, cost a short sync 15%).
 */
export const WORKER_HEAP_GROWING_PERCENT = 75;

/** Applies the workers' heap setting to this process (V8 reads it at each collection). */
export function tuneWorkerHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${WORKER_HEAP_GROWING_PERCENT}`);
}
