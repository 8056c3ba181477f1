// Lets an AbortSignal end a run that is waiting on a promise (an async hook) that may never settle: the
// signal's 'abort' event rejects the wait at once with a HookmdAbortError naming what was pending.
import { HookmdAbortError } from '../errors.js';
import { showText } from '../describe-value.js';

/**
 * Resolves as `pending` does, unless `signal` aborts first (or had aborted and `pending` is still pending
 * after the current turn of the event loop): then rejects with
 * HookmdAbortError (`code` 'ABORTED', `name` 'AbortError', `details.pendingHook`). A later rejection of
 * `pending` is handled, so it is not reported as unhandled.
 *
 * @example
 * taken += await abortable(walker.advance(...), signal, () => registry.runningHook, 'FIRE.run');
 */
export function abortable<T>(pending: Promise<T>, signal: AbortSignal | undefined, pendingHook: () => string | null, operation: string): Promise<T> {
  if (signal === undefined) return pending;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      const hook = pendingHook();
      const what = hook === null ? 'a pending step' : `hook '${hook}'`;
      reject(new HookmdAbortError(`${operation}: aborted (${showText(signal.reason ?? 'aborted')}) while waiting for ${what}`, {
        pendingHook: hook,
        reason: signal.reason,
      }, { cause: signal.reason }));
    };
    // Aborted before the wait began (by the hook itself, say): a promise that settles within this turn of
    // the event loop still ends the run cleanly after its step; only one still pending after it is abandoned.
    if (signal.aborted) setImmediate(onAbort);
    else signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
