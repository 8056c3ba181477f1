// The thread count a command may ask for. Far more threads than cores only costs memory and scheduling,
// and a pool of a million fails inside the addon ("Resource temporarily unavailable", exit code 1);
// capping it makes such a value a usage error (exit code 2) before the addon is asked.
import { HookmdRangeError } from '../errors.js';
import { MAX_THREADS } from '../native/index.js';
import { showText } from '../describe-value.js';

export { MAX_THREADS };

/** Throws INVALID_THREADS when `threads` is over {@link MAX_THREADS}. */
export function checkThreads(threads: number): number {
  if (threads > MAX_THREADS) {
    throw new HookmdRangeError('INVALID_THREADS', `threads: at most ${MAX_THREADS}, got ${showText(threads)}`, { field: 'threads', value: threads, max: MAX_THREADS });
  }
  return threads;
}
