// ZarrSink: streams systems into a ragged Zarr v3 store (docs/formats.md), a buffer at a time.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';

import type { System } from '../../data/index.js';
import { describeValue, showText } from '../../describe-value.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { BufferedSink } from './buffered-sink.js';
import type { SinkOptions } from './sink.js';
import { ZarrAppender, zarrRecord, type ZarrRecord } from '../zarr/appender.js';
import type { ZarrChunking, ZarrCompression } from '../zarr/layout.js';

/** Options of `new ZarrSink`. */
export interface ZarrSinkOptions extends SinkOptions, Partial<ZarrChunking> {}

function checkChunk(field: 'chunkAtoms' | 'chunkSystems', value: number | undefined, fallback: number): number {
  const chunk = value ?? fallback;
  if (!Number.isInteger(chunk) || chunk < 1) {
    throw new HookmdRangeError('INVALID_CHUNKS', `ZarrSink: ${field} must be an integer ≥ 1, got ${showText(chunk)}`, { field, value: chunk });
  }
  return chunk;
}

function checkCompression(value: unknown): ZarrCompression {
  if (value === undefined) return 'gzip';
  if (value !== 'gzip' && value !== 'none') {
    throw new HookmdTypeError('INVALID_OPTIONS', `ZarrSink: compression must be 'gzip' or 'none', got ${describeValue(value)}`, { field: 'compression', value });
  }
  return value;
}

/**
 * Writes systems to a Zarr v3 store at `path` (a directory, created if missing; it must not hold
 * anything yet) in the ragged layout of nvalchemi's ZarrData: per-atom arrays concatenated along
 * axis 0 (`core/positions`, `core/forces`, ...), one row per system in per-system arrays
 * (`core/energy`, `core/cell`, ...), and `meta/atoms_ptr` (B+1 offsets) to tell them apart. Systems
 * are validated when written and appended `capacity` at a time (default 1024). Chunks are gzip-compressed
 * (level 5; `compression: 'none'` stores them raw). Each append writes
 * data before metadata and commits with `meta/atoms_ptr` last, so a failure (SINK_WRITE_FAILED)
 * leaves the store readable as it was. Read it back with `readZarr` (or any Zarr v3 reader).
 *
 * @example
 * const sink = new ZarrSink('relaxed.zarr', { capacity: 4096 });
 * await fire.runStream(source, { sinks: [sink], maxAtoms: 50_000 });
 * await sink.close();
 * const systems = await readZarr('relaxed.zarr');
 */
export class ZarrSink extends BufferedSink<ZarrRecord> {
  /** The store's directory. */
  readonly path: string;
  readonly #appender: ZarrAppender;

  constructor(path: string, options: ZarrSinkOptions = {}) {
    super('ZarrSink', checkKeys('ZarrSink', options, ['capacity', 'chunkAtoms', 'chunkSystems', 'compression']), 1024);
    if (typeof path !== 'string' || path === '') {
      throw new HookmdTypeError('INVALID_PATH', 'ZarrSink: path must be a non-empty string', { field: 'path', value: path });
    }
    if (existsSync(path) && (!statSync(path).isDirectory() || readdirSync(path).length > 0)) {
      throw new HookmdError('SINK_PATH_EXISTS', `ZarrSink: ${path} already exists and is not an empty directory; remove it or pick another path`, {
        field: 'path',
        value: path,
      });
    }
    this.path = path;
    this.#appender = new ZarrAppender(path, {
      chunkAtoms: checkChunk('chunkAtoms', options.chunkAtoms, 65536),
      chunkSystems: checkChunk('chunkSystems', options.chunkSystems, 4096),
      compression: checkCompression(options.compression),
    });
  }

  protected prepare(system: System, index: number): ZarrRecord {
    return zarrRecord(system, index, 'ZarrSink');
  }

  protected async persist(records: readonly ZarrRecord[]): Promise<void> {
    await this.#appender.append(records);
  }

  protected async finalize(): Promise<void> {
    // An empty store is still a valid one: close() after no writes leaves the groups and empty arrays.
    await mkdir(this.path, { recursive: true });
    await this.#appender.append([]);
  }

  protected describe(): Record<string, unknown> {
    return { path: this.path };
  }
}
