// openSink: a file sink chosen by the path's extension, for configs that name a file, not an object.
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { ExtxyzSink, type ExtxyzSinkOptions } from './extxyz-sink.js';
import { H5mdSink } from './h5md-sink.js';
import { LammpsDumpSink } from './lammps-dump-sink.js';
import type { Sink } from './sink.js';
import { TrajSink } from './traj-sink.js';
import { ZarrSink, type ZarrSinkOptions } from './zarr-sink.js';
import { showValue } from '../../describe-value.js';

/** The file formats `openSink` writes. */
export type SinkFormat = 'extxyz' | 'zarr' | 'traj' | 'lammps-dump' | 'h5md';

/** The sink format `openSink` picks for `path`, from its extension; undefined when it cannot tell. */
export function sinkFormat(path: string): SinkFormat | undefined {
  const lower = path.toLowerCase().replace(/\/+$/, '');
  if (lower.endsWith('.xyz') || lower.endsWith('.extxyz')) return 'extxyz';
  if (lower.endsWith('.traj')) return 'traj';
  if (lower.endsWith('.lammpstrj') || lower.endsWith('.dump')) return 'lammps-dump';
  if (lower.endsWith('.h5md') || lower.endsWith('.h5')) return 'h5md';
  return lower.endsWith('.zarr') ? 'zarr' : undefined;
}

/**
 * An ExtxyzSink for `.xyz` / `.extxyz` paths, a ZarrSink for `.zarr`, a TrajSink for `.traj`, a
 * LammpsDumpSink for `.lammpstrj` / `.dump`, an H5mdSink for `.h5md` / `.h5`; anything else throws
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
  if (format === 'traj') return new TrajSink(path, { capacity, append });
  if (format === 'lammps-dump') return new LammpsDumpSink(path, { capacity, append });
  if (format === 'h5md') return new H5mdSink(path, { capacity });
  throw new HookmdError('UNKNOWN_SINK_FORMAT', `openSink: cannot tell the format of ${showValue(path)}; use .xyz, .extxyz, .zarr, .traj, .lammpstrj, .dump, .h5md or .h5`, {
    field: 'path',
    value: path,
  });
}
