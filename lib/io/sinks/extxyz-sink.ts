// ExtxyzSink: streams systems into one extxyz file, appending whole frames a buffer at a time.
import type { System } from '../../data/index.js';
import { HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { formatFrameAt, type WriteExtxyzOptions } from '../extxyz/write.js';
import type { SinkOptions } from './sink.js';
import { TextFileSink } from './text-file-sink.js';
import { showValue } from '../../describe-value.js';

/** Options of `new ExtxyzSink`. */
export interface ExtxyzSinkOptions extends SinkOptions, WriteExtxyzOptions {
  /** Keep the file's existing frames and append after them (default: start a new file). */
  append?: boolean;
}

/**
 * Writes systems as extxyz frames to `path` (ASE reads the file; see `writeExtxyz`). Frames are
 * formatted, and so validated, when written, then buffered; every `capacity` systems (default 64),
 * on `drain()` and on `close()` the buffer is appended with one write of complete frames. If that
 * write fails the file is cut back to its previous length, so it only ever holds whole frames, and
 * the error is SINK_WRITE_FAILED. The file is created (empty) by `close()` if nothing was written.
 *
 * @example
 * const sink = new ExtxyzSink('relaxed.xyz', { capacity: 256 });
 * await fire.runStream(readExtxyz('inputs.xyz'), { sinks: [sink], maxAtoms: 20_000 });
 * await sink.close();
 */
export class ExtxyzSink extends TextFileSink {
  readonly #units: 'metal' | 'lj';

  constructor(path: string, options: ExtxyzSinkOptions = {}) {
    super('ExtxyzSink', path, checkKeys('ExtxyzSink', options, ['capacity', 'units', 'append']), 64, options.append);
    if (options.units !== undefined && options.units !== 'lj' && options.units !== 'metal') {
      throw new HookmdTypeError('INVALID_UNITS', `ExtxyzSink: units must be 'metal' or 'lj', got ${showValue(options.units)}`, {
        field: 'units',
        value: options.units,
      });
    }
    this.#units = options.units ?? 'metal';
  }

  protected prepare(system: System, index: number): string {
    return formatFrameAt(system, index, this.#units, 'ExtxyzSink');
  }
}
