// TrajSink: streams systems into an ASE trajectory (.traj), appending whole frames a buffer at a time.
import type { System } from '../../data/index.js';
import { HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { BufferedSink } from './buffered-sink.js';
import type { SinkOptions } from './sink.js';
import { firstItem, trajItem, TRAJ_TAG } from '../traj.js';
import { UlmAppender, ulmAppendState } from '../ulm.js';

/** Options of `new TrajSink`. */
export interface TrajSinkOptions extends SinkOptions {
  /** Keep the file's frames and append after them (the file must be an ASE trajectory); default: a new file. */
  append?: boolean;
}

/**
 * Writes systems to an ASE trajectory at `path` that `ase.io.read(path, ':')` reads (see `writeTraj` for
 * the fields). Frames are validated when written, buffered, and appended `capacity` at a time (default 64),
 * on `drain()` and on `close()`. Each append writes the frames' data first and the file's frame count last,
 * so a failure (SINK_WRITE_FAILED) or a crash leaves the file readable with the frames it had; `close()`
 * with nothing written leaves an empty trajectory.
 *
 * @example
 * const sink = new TrajSink('md.traj', { capacity: 16 });
 * await sink.write(batch);
 * await sink.close();
 */
export class TrajSink extends BufferedSink<Record<string, unknown>> {
  /** The file written. */
  readonly path: string;
  readonly #appender: UlmAppender;

  constructor(path: string, options: TrajSinkOptions = {}) {
    super('TrajSink', checkKeys('TrajSink', options, ['capacity', 'append']), 64);
    if (typeof path !== 'string' || path === '') {
      throw new HookmdTypeError('INVALID_PATH', 'TrajSink: path must be a non-empty string', { field: 'path', value: path });
    }
    this.path = path;
    const existing = options.append === true ? ulmAppendState(path, TRAJ_TAG, 'TrajSink') : undefined;
    this.#appender = new UlmAppender(path, TRAJ_TAG, existing);
  }

  protected prepare(system: System, index: number): Record<string, unknown> {
    return trajItem(system, index, 'TrajSink');
  }

  protected async persist(items: readonly Record<string, unknown>[]): Promise<void> {
    await this.#appender.append(this.#appender.count === 0 ? [firstItem(items[0] as Record<string, unknown>), ...items.slice(1)] : items);
  }

  protected async finalize(): Promise<void> {
    await this.#appender.append([]);
  }

  protected describe(): Record<string, unknown> {
    return { path: this.path };
  }
}
