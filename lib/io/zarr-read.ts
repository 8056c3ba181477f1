// readZarr: the Systems of a store that ZarrSink wrote (the ragged layout of zarr-layout.ts).
import { FileSystemStore } from '@zarrita/storage';
import * as zarr from 'zarrita';

import { chemicalSymbol } from '../data/index.js';
import type { System } from '../data/index.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { ZARR_ARRAYS, ZARR_LAYOUT, type ZarrArraySpec } from './zarr-layout.js';

type Data = Float64Array | Int32Array | Int8Array | Uint8Array | BigInt64Array;

const spec = (path: string): ZarrArraySpec => ZARR_ARRAYS.find((s) => s.path === path) as ZarrArraySpec;

/** The first `rows` rows of an array (all of it without `rows`); rows past them are uncommitted. */
async function readRows(root: zarr.Location<FileSystemStore>, array: ZarrArraySpec, rows?: number): Promise<Data> {
  const node = await zarr.open(root.resolve(array.path), { kind: 'array' });
  if (rows === 0) return new Float64Array(0);
  const chunk = await zarr.get(node, rows === undefined ? null : [zarr.slice(0, rows), ...array.inner.map(() => null)]);
  return chunk.data as Data;
}

const rowsOf = (data: Float64Array, start: number, count: number, width: number): number[][] =>
  Array.from({ length: count }, (_, i) => Array.from(data.subarray((start + i) * width, (start + i + 1) * width)));

/**
 * Reads back every system of a store written by ZarrSink, in write order. Fields a system did not
 * have (NaN rows) are left out; `info` gets systemId, converged and steps back from their arrays.
 * Only the systems that `meta/atoms_ptr` commits are read, so a store whose writer was interrupted
 * reads as it was after the last complete write.
 *
 * @example
 * const systems = await readZarr('relaxed.zarr');
 * systems[0].energy;
 */
export async function readZarr(path: string): Promise<System[]> {
  if (typeof path !== 'string' || path === '') {
    throw new HookmdTypeError('INVALID_PATH', 'readZarr: path must be a non-empty string', { field: 'path', value: path });
  }
  const root = zarr.root(new FileSystemStore(path));
  const arrays = new Map<string, Data>();
  try {
    const group = await zarr.open(root, { kind: 'group' });
    const layout = (group.attrs.hookmd ?? {}) as { name?: string; version?: number };
    if (layout.name !== ZARR_LAYOUT.name) {
      const found = JSON.stringify(layout.name);
      throw new HookmdError('ZARR_LAYOUT', `readZarr: ${path} is not a ${ZARR_LAYOUT.name} store (root attribute hookmd.name is ${found})`, { path });
    }
    const pointers = (await readRows(root, spec('meta/atoms_ptr'))) as BigInt64Array;
    const systems = pointers.length - 1;
    const atoms = Number(pointers[systems]);
    const infoPointers = (await readRows(root, spec('meta/info_ptr'), systems + 1)) as BigInt64Array;
    arrays.set('meta/atoms_ptr', pointers);
    arrays.set('meta/info_ptr', infoPointers);
    for (const array of ZARR_ARRAYS) {
      if (array.axis === 'pointer') continue;
      const rows = array.axis === 'atom' ? atoms : array.axis === 'system' ? systems : Number(infoPointers[systems]);
      arrays.set(array.path, await readRows(root, array, rows));
    }
  } catch (error) {
    if (error instanceof HookmdError) throw error;
    throw new HookmdError('READ_FAILED', `readZarr: cannot read ${path}: ${(error as Error).message}`, { path, cause: error }, { cause: error });
  }
  return assemble(arrays);
}

function assemble(arrays: Map<string, Data>): System[] {
  const get = <T extends Data>(name: string): T => arrays.get(name) as T;
  const ptr = get<BigInt64Array>('meta/atoms_ptr');
  const infoPtr = get<BigInt64Array>('meta/info_ptr');
  const z = get<Int32Array>('core/atomic_numbers');
  const decoder = new TextDecoder();
  const present = (data: Float64Array, start: number, length: number): boolean => !data.subarray(start, start + length).every(Number.isNaN);
  return Array.from({ length: ptr.length - 1 }, (_, s) => {
    const lo = Number(ptr[s]);
    const n = Number(ptr[s + 1]) - lo;
    const numbers = Array.from(z.subarray(lo, lo + n));
    const system: System = {
      symbols: numbers.map(chemicalSymbol),
      atomicNumbers: numbers,
      positions: rowsOf(get('core/positions'), lo, n, 3),
      cell: rowsOf(get('core/cell'), 3 * s, 3, 3),
      pbc: Array.from(get<Uint8Array>('core/pbc').subarray(3 * s, 3 * s + 3), (p) => p === 1),
    };
    const masses = get<Float64Array>('core/masses');
    if (present(masses, lo, n)) system.masses = Array.from(masses.subarray(lo, lo + n));
    if (present(get('core/velocities'), 3 * lo, 3 * n)) system.velocities = rowsOf(get('core/velocities'), lo, n, 3);
    const energy = get<Float64Array>('core/energy')[s];
    if (!Number.isNaN(energy)) system.energy = energy;
    if (present(get('core/forces'), 3 * lo, 3 * n)) system.forces = rowsOf(get('core/forces'), lo, n, 3);
    if (present(get('core/stress'), 9 * s, 9)) system.stress = rowsOf(get('core/stress'), 3 * s, 3, 3);
    const bytes = get<Uint8Array>('meta/info').subarray(Number(infoPtr[s]), Number(infoPtr[s + 1]));
    const info = (bytes.length === 0 ? {} : JSON.parse(decoder.decode(bytes))) as Record<string, unknown>;
    const systemId = get<BigInt64Array>('meta/system_id')[s];
    const converged = get<Int8Array>('meta/converged')[s];
    const steps = get<BigInt64Array>('meta/steps')[s];
    if (systemId >= 0n) info.systemId = Number(systemId);
    if (converged >= 0) info.converged = converged === 1;
    if (steps >= 0n) info.steps = Number(steps);
    system.info = info;
    return system;
  });
}
