// openSink: a file sink chosen by the path's extension, for configs that name a file, not an object.
import { HookmdError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { ExtxyzSink, type ExtxyzSinkOptions } from './extxyz-sink.js';
import type { Sink } from './sink.js';
import { ZarrSink, type ZarrSinkOptions } from './zarr-sink.js';

/** The sink format `openSink` picks for `path`, from its extension; undefined when it cannot tell. */
export function sinkFormat(path: string): 'extxyz' | 'zarr' | undefined {
  const lower = path.toLowerCase().replace(/\/+$/, '');
  if (lower.endsWith('.xyz') || lower.endsWith('.extxyz')) return 'extxyz';
  return lower.endsWith('.zarr') ? 'zarr' : undefined;
}

/**
 * An ExtxyzSink for `.xyz` / `.extxyz` paths, a ZarrSink for `.zarr`; anything else throws
 * UNKNOWN_SINK_FORMAT. The options of either sink are accepted whatever the path, so a caller can pass one
 * set for any file; each sink gets those it takes (`units` and `append` matter to extxyz only, where
 * velocities are written as ASE momenta, and the chunk sizes to Zarr only).
 *
 * @example
 * const sink = openSink('out/relaxed.zarr', { capacity: 512 });
 */
export function openSink(path: string, options: ExtxyzSinkOptions & ZarrSinkOptions = {}): Sink {
  if (typeof path !== 'string' || path === '') {
    throw new HookmdTypeError('INVALID_PATH', 'openSink: path must be a non-empty string', { field: 'path', value: path });
  }
  const { capacity, units, append, chunkAtoms, chunkSystems } = checkKeys('openSink', options, ['capacity', 'units', 'append', 'chunkAtoms', 'chunkSystems']) as ExtxyzSinkOptions & ZarrSinkOptions;
  const format = sinkFormat(path);
  if (format === 'extxyz') return new ExtxyzSink(path, { capacity, units, append });
  if (format === 'zarr') return new ZarrSink(path, { capacity, chunkAtoms, chunkSystems });
  throw new HookmdError('UNKNOWN_SINK_FORMAT', `openSink: cannot tell the format of ${JSON.stringify(path)}; use .xyz, .extxyz or .zarr`, {
    field: 'path',
    value: path,
  });
}
