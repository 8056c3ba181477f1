// hookmd hook kernel: what counts as a promise, for the dispatch loop, the profiler and the lifecycle.

/** A returned value that must be awaited (a promise or any thenable). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
