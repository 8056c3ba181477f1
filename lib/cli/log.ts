// The --log flag of relax and md: a LoggingHook whose rows reach the file at every firing.
import { LoggingHook } from '../dynamics/hooks/logging-hook.js';

/**
 * A LoggingHook writing csv, or jsonl when the file name ends in .jsonl; `pressure` adds the volume and
 * pressure columns (for periodic systems).
 *
 * @example
 * engine.register(logHook('relax.csv', 10));
 */
export function logHook(path: string, frequency: number, pressure = false): LoggingHook {
  // One append per firing: a log that is followed live (tail -f) or cut short by Ctrl-C is complete.
  return new LoggingHook({ path, frequency, format: path.endsWith('.jsonl') ? 'jsonl' : 'csv', bufferRows: 1, pressure });
}
