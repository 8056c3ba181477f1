// ExtxyzSink: streams systems into one extxyz file, appending whole frames a buffer at a time.
import { open, writeFile } from 'node:fs/promises';

import type { System } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { BufferedSink } from './buffered-sink.js';
import { formatFrameAt, type WriteExtxyzOptions } from './extxyz-write.js';
import type { SinkOptions } from './sink.js';

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
export class ExtxyzSink extends BufferedSink<string> {
  /** The file written. */
  readonly path: string;
  readonly #units: 'metal' | 'lj';
  #started: boolean;

  constructor(path: string, options: ExtxyzSinkOptions = {}) {
    super('ExtxyzSink', checkKeys('ExtxyzSink', options, ['capacity', 'units', 'append']), 64);
    if (typeof path !== 'string' || path === '') {
      throw new HookmdTypeError('INVALID_PATH', 'ExtxyzSink: path must be a non-empty string', { field: 'path', value: path });
    }
    if (options.units !== undefined && options.units !== 'lj' && options.units !== 'metal') {
      throw new HookmdTypeError('INVALID_UNITS', `ExtxyzSink: units must be 'metal' or 'lj', got ${JSON.stringify(options.units)}`, {
        field: 'units',
        value: options.units,
      });
    }
    this.path = path;
    this.#units = options.units ?? 'metal';
    this.#started = options.append === true;
  }

  protected prepare(system: System, index: number): string {
    return formatFrameAt(system, index, this.#units, 'ExtxyzSink');
  }

  protected async persist(frames: readonly string[]): Promise<void> {
    // The first write of a new file truncates whatever was there; later ones append.
    const handle = await open(this.path, this.#started ? 'a' : 'w');
    try {
      const { size } = await handle.stat();
      try {
        await handle.writeFile(frames.join(''));
        await handle.datasync();
      } catch (error) {
        // A short write (disk full) would leave half a frame: cut the file back to whole frames.
        await handle.truncate(size).catch(() => undefined);
        throw error;
      }
    } finally {
      await handle.close();
    }
    this.#started = true;
  }

  protected async finalize(): Promise<void> {
    if (!this.#started) await writeFile(this.path, '');
    this.#started = true;
  }

  protected describe(): Record<string, unknown> {
    return { path: this.path };
  }
}
