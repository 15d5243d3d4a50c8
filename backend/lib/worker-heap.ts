import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets its heap grow past what was live after a full collection before it collects again, in
 * percent, for processes that run syncs and transforms. V8's own factor (up to 4× when it allocates fast)
 * let the sync's heap reach ~250 MiB at 100× volume when ~60 MiB was live: a sync allocates a batch's
 * rows and files at a high rate, and nearly all of it dies a batch later. At 20%, full collections come
 * sooner: the heap stayed ~100 MiB at every volume (docs/decisions/2026-11-22-local-destination.md).
 */
export const WORKER_HEAP_GROWING_PERCENT = 20;

/** Applies the workers' heap setting to this process (V8 reads it at each collection). */
export function tuneWorkerHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${WORKER_HEAP_GROWING_PERCENT}`);
}
