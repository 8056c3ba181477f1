// A file sink of text frames (extxyz, LAMMPS dump): each buffer is appended with one write of whole frames,
// and a failed write cuts the file back to the frames it had.
import { open, writeFile } from 'node:fs/promises';

import { HookmdTypeError } from '../../errors.js';
import { BufferedSink } from './buffered-sink.js';
import type { SinkOptions } from './sink.js';

/** A BufferedSink whose entries are formatted frames appended to one text file. */
export abstract class TextFileSink extends BufferedSink<string> {
  /** The file written. */
  readonly path: string;
  #started: boolean;

  /** `append`: keep the file's frames; otherwise the first write starts the file anew. */
  protected constructor(owner: string, path: string, options: SinkOptions, fallbackCapacity: number, append: boolean | undefined) {
    super(owner, options, fallbackCapacity);
    if (typeof path !== 'string' || path === '') {
      throw new HookmdTypeError('INVALID_PATH', `${owner}: path must be a non-empty string`, { field: 'path', value: path });
    }
    this.path = path;
    this.#started = append === true;
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
