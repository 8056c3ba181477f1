// The --log flag of relax and md: a LoggingHook whose rows reach the file at every firing.
import { LoggingHook, type LogColumn } from '../dynamics/hooks/logging-hook.js';

/** How a scale-out run (--shard, --resume) logs: ids from the whole input, rows added to an earlier attempt's. */
export interface LogScaleOut {
  /** Keep the file's rows and append (--resume). */
  append?: boolean;
  /** The systemId column: the system's index in the whole input rather than in this run's stream. */
  systemId?: LogColumn;
}

/**
 * A LoggingHook writing csv, or jsonl when the file name ends in .jsonl; `pressure` adds the volume and
 * pressure columns (for periodic systems).
 *
 * @example
 * engine.register(logHook('relax.csv', 10));
 */
export function logHook(path: string, frequency: number, pressure = false, scaleOut: LogScaleOut = {}): LoggingHook {
  const columns = scaleOut.systemId === undefined ? {} : { columns: { systemId: scaleOut.systemId } };
  // One append per firing: a log that is followed live (tail -f) or cut short by Ctrl-C is complete.
  return new LoggingHook({ path, frequency, format: path.endsWith('.jsonl') ? 'jsonl' : 'csv', bufferRows: 1, pressure, append: scaleOut.append === true, ...columns });
}
