// readZarr: the Systems of a store that ZarrSink wrote (the ragged layout of layout.ts). A store is read
// as untrusted: every chunk file must have the size its array's metadata gives, after gzip where the chunks
// are compressed (a truncated one would read as zeros; a hostile one cannot inflate past that size), the row counts are witnessed by chunk files before anything of that size is allocated, the
// pointers must be monotonic, and every system must be one Batch.fromSystems takes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TextDecoder } from 'node:util';

import { FileSystemStore } from '@zarrita/storage';
import * as zarr from 'zarrita';

import { chemicalSymbol, normalizeSystem, unitSystem } from '../../data/index.js';
import type { System } from '../../data/index.js';
import { HookmdError, HookmdTypeError, isHookmdError } from '../../errors.js';
import { gunzippedLength } from './gzip.js';
import { INFO_CHUNK_BYTES, ZARR_ARRAYS, ZARR_LAYOUT, type ZarrArraySpec } from './layout.js';

type Data = Float64Array | Int32Array | Int8Array | Uint8Array | BigInt64Array;

const BYTES: Record<ZarrArraySpec['dtype'], number> = { float64: 8, int64: 8, int32: 4, int8: 1, uint8: 1 };
const METAL = unitSystem('metal');

const spec = (path: string): ZarrArraySpec => ZARR_ARRAYS.find((s) => s.path === path) as ZarrArraySpec;

/** READ_FAILED naming the store and, where known, the chunk or metadata file. */
function damaged(store: string, where: string, reason: string, cause?: unknown): HookmdError {
  return new HookmdError('READ_FAILED', `readZarr: ${store}: ${where}: ${reason}`, { path: store, chunk: where }, cause === undefined ? undefined : { cause });
}

/** A filesystem store that refuses a chunk file whose size (decompressed, for gzip) is not the one its array's metadata implies. */
class CheckedStore extends FileSystemStore {
  readonly #chunks = new Map<string, { bytes: number; gzip: boolean }>();
  readonly #path: string;

  constructor(path: string) {
    super(path);
    this.#path = path;
  }

  /** Chunks of `array` (a layout path) hold exactly `bytes` bytes, after gzip when `gzip`. */
  expect(array: string, bytes: number, gzip: boolean): void {
    this.#chunks.set(`/${array}/c/`, { bytes, gzip });
  }

  override async get(key: `/${string}`, options?: Parameters<FileSystemStore['get']>[1]): Promise<Uint8Array | undefined> {
    const data = await super.get(key, options);
    if (data === undefined) return data;
    for (const [prefix, { bytes, gzip }] of this.#chunks) {
      if (!key.startsWith(prefix)) continue;
      let length = data.length;
      if (gzip) {
        // Inflated once here, bounded, before zarrita inflates it again: the check must see the size first.
        try {
          length = gunzippedLength(data, bytes);
        } catch (error) {
          throw damaged(this.#path, key.slice(1), `the chunk is not gzip data its array's chunks can hold: ${(error as Error).message}`, error);
        }
      }
      if (length !== bytes) {
        throw damaged(this.#path, key.slice(1), `the chunk has ${length} bytes${gzip ? ' (gunzipped)' : ''}, its array's chunks have ${bytes}: the file is truncated or damaged`);
      }
    }
    return data;
  }
}

/** Whether an array's codecs are the layout's: little-endian bytes, optionally then gzip; undefined for any other. */
function gzipOf(codecs: readonly { name: string; configuration?: Record<string, unknown> }[]): boolean | undefined {
  const [bytes, gzip, ...rest] = codecs;
  if (bytes?.name !== 'bytes' || (bytes.configuration?.endian ?? 'little') !== 'little' || rest.length > 0) return undefined;
  if (gzip === undefined) return false;
  return gzip.name === 'gzip' ? true : undefined;
}

interface Node {
  readonly array: zarr.Array<zarr.DataType, CheckedStore>;
  readonly rows: number;
  readonly chunkRows: number;
}

/** Opens one array and checks its metadata against the layout: dtype, inner shape, chunking. */
async function openArray(store: CheckedStore, root: zarr.Location<CheckedStore>, path: string, array: ZarrArraySpec): Promise<Node> {
  const where = `${array.path}/zarr.json`;
  let node: zarr.Array<zarr.DataType, CheckedStore>;
  try {
    node = await zarr.open(root.resolve(array.path), { kind: 'array' });
  } catch (error) {
    throw damaged(path, where, `unreadable metadata: ${(error as Error).message}`, error);
  }
  const inner = node.shape.slice(1);
  const chunkInner = node.chunks.slice(1);
  const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);
  if (node.dtype !== array.dtype || !same(inner, array.inner) || !same(chunkInner, array.inner) || !(node.chunks[0] >= 1)) {
    throw new HookmdError('ZARR_LAYOUT', `readZarr: ${path}: ${where} is ${node.dtype} of shape [${node.shape}] in chunks [${node.chunks}]; the layout has ${array.dtype} [rows, ${array.inner}]`, {
      path,
      chunk: where,
    });
  }
  // zarrita keeps the codec list to itself: read it from the metadata it has just parsed.
  const metadata = JSON.parse(new TextDecoder().decode(await store.get(`/${array.path}/zarr.json`))) as { codecs?: unknown };
  const codecs = Array.isArray(metadata.codecs) ? (metadata.codecs as { name: string; configuration?: Record<string, unknown> }[]) : undefined;
  const gzip = gzipOf(codecs ?? []);
  if (gzip === undefined) {
    throw new HookmdError('ZARR_LAYOUT', `readZarr: ${path}: ${where} has codecs ${JSON.stringify((codecs ?? []).map((c) => c?.name))}; the layout has ["bytes"] or ["bytes", "gzip"]`, { path, chunk: where });
  }
  store.expect(array.path, node.chunks.reduce((a, b) => a * b, 1) * BYTES[array.dtype], gzip);
  return { array: node, rows: node.shape[0], chunkRows: node.chunks[0] };
}

/**
 * Throws READ_FAILED unless the chunk files of `array` that cover rows [0, rows) all exist: arrays that are
 * never all fill (atomic numbers, atom pointers, info bytes) witness the sizes read from the pointers.
 */
function requireChunks(path: string, array: ZarrArraySpec, node: Node, rows: number): void {
  const chunks = Math.ceil(rows / node.chunkRows);
  const suffix = array.inner.map(() => '/0').join('');
  for (let c = 0; c < chunks; c++) {
    const key = `${array.path}/c/${c}${suffix}`;
    if (!existsSync(join(path, key))) throw damaged(path, key, `the chunk is missing, but ${rows} rows need it`);
  }
}

async function readRows(path: string, node: Node, array: ZarrArraySpec, rows: number): Promise<Data> {
  if (rows > node.rows) {
    throw damaged(path, `${array.path}/zarr.json`, `the pointers need ${rows} rows, the array has ${node.rows}: the store is truncated`);
  }
  if (rows === 0) return new Float64Array(0);
  const chunk = await zarr.get(node.array, [zarr.slice(0, rows), ...array.inner.map(() => null)]);
  return chunk.data as Data;
}

/** The pointers as numbers: starting at 0, never decreasing, ending at most at `limit`. */
function pointers(path: string, array: ZarrArraySpec, values: BigInt64Array, limit: number): number[] {
  const out = Array.from(values, Number);
  out.forEach((value, k) => {
    const previous = k === 0 ? 0 : out[k - 1];
    if (!Number.isSafeInteger(value) || (k === 0 ? value !== 0 : value < previous) || value > limit) {
      throw damaged(path, `${array.path} row ${k}`, `pointer ${values[k]} does not follow ${k === 0 ? 'the start (0)' : previous} within ${limit}`);
    }
  });
  return out;
}

/**
 * Reads back every system of a store written by ZarrSink, in write order. Fields a system did not
 * have (NaN rows) are left out; `info` gets systemId, converged and steps back from their arrays.
 * Only the systems that `meta/atoms_ptr` commits are read, so a store whose writer was interrupted
 * reads as it was after the last complete write. A damaged store is READ_FAILED naming the chunk or
 * metadata file (`readZarr: out.zarr: core/positions/c/0/0: the chunk has 20 bytes, ...`), or ZARR_LAYOUT.
 *
 * @example
 * const systems = await readZarr('relaxed.zarr');
 * systems[0].energy;
 */
export async function readZarr(path: string): Promise<System[]> {
  if (typeof path !== 'string' || path === '') {
    throw new HookmdTypeError('INVALID_PATH', 'readZarr: path must be a non-empty string', { field: 'path', value: path });
  }
  const store = new CheckedStore(path);
  const root = zarr.root(store);
  const arrays = new Map<string, Data>();
  try {
    const group = await zarr.open(root, { kind: 'group' });
    const layout = (group.attrs.hookmd ?? {}) as { name?: string; version?: number };
    if (layout.name !== ZARR_LAYOUT.name) {
      const found = JSON.stringify(layout.name);
      throw new HookmdError('ZARR_LAYOUT', `readZarr: ${path} is not a ${ZARR_LAYOUT.name} store (root attribute hookmd.name is ${found})`, { path });
    }
    const nodes = new Map<string, Node>();
    for (const array of ZARR_ARRAYS) nodes.set(array.path, await openArray(store, root, path, array));
    const node = (name: string): Node => nodes.get(name) as Node;
    // Pointer rows are witnessed by their chunk files (all but the first chunk hold nonzero counts).
    const atomsPtr = spec('meta/atoms_ptr');
    requireChunks(path, atomsPtr, node(atomsPtr.path), Math.max(0, node(atomsPtr.path).rows - node(atomsPtr.path).chunkRows));
    const atomRows = node('core/atomic_numbers').rows;
    const systemPointers = pointers(path, atomsPtr, (await readRows(path, node(atomsPtr.path), atomsPtr, node(atomsPtr.path).rows)) as BigInt64Array, atomRows);
    const systems = systemPointers.length - 1;
    const atoms = systemPointers[systems] ?? 0;
    requireChunks(path, spec('core/atomic_numbers'), node('core/atomic_numbers'), atoms);
    const infoPtr = spec('meta/info_ptr');
    const infoPointers = pointers(path, infoPtr, (await readRows(path, node(infoPtr.path), infoPtr, systems + 1)) as BigInt64Array, node('meta/info').rows);
    const infoBytes = infoPointers[systems] ?? 0;
    requireChunks(path, spec('meta/info'), node('meta/info'), infoBytes);
    arrays.set('meta/atoms_ptr', BigInt64Array.from(systemPointers, BigInt));
    arrays.set('meta/info_ptr', BigInt64Array.from(infoPointers, BigInt));
    for (const array of ZARR_ARRAYS) {
      if (array.axis === 'pointer') continue;
      const rows = array.axis === 'atom' ? atoms : array.axis === 'system' ? systems : infoBytes;
      arrays.set(array.path, await readRows(path, node(array.path), array, rows));
    }
  } catch (error) {
    if (isHookmdError(error)) throw error;
    throw new HookmdError('READ_FAILED', `readZarr: cannot read ${path}: ${(error as Error).message}`, { path, cause: error }, { cause: error });
  }
  return assemble(arrays, path);
}

function assemble(arrays: Map<string, Data>, path: string): System[] {
  const get = <T extends Data>(name: string): T => arrays.get(name) as T;
  const ptr = get<BigInt64Array>('meta/atoms_ptr');
  const infoPtr = get<BigInt64Array>('meta/info_ptr');
  const z = get<Int32Array>('core/atomic_numbers');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const present = (data: Float64Array, start: number, length: number): boolean => !data.subarray(start, start + length).every(Number.isNaN);
  const rowsOf = (data: Float64Array, start: number, count: number, width: number): number[][] =>
    Array.from({ length: count }, (_, i) => Array.from(data.subarray((start + i) * width, (start + i + 1) * width)));
  return Array.from({ length: ptr.length - 1 }, (_, s) => {
    const lo = Number(ptr[s]);
    const n = Number(ptr[s + 1]) - lo;
    const system: System = {
      atomicNumbers: Array.from(z.subarray(lo, lo + n)),
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
    const info = infoOf(get<Uint8Array>('meta/info').subarray(Number(infoPtr[s]), Number(infoPtr[s + 1])), decoder, path, s, Number(infoPtr[s]));
    const systemId = get<BigInt64Array>('meta/system_id')[s];
    const converged = get<Int8Array>('meta/converged')[s];
    const steps = get<BigInt64Array>('meta/steps')[s];
    if (systemId >= 0n) info.systemId = Number(systemId);
    if (converged >= 0) info.converged = converged === 1;
    if (steps >= 0n) info.steps = Number(steps);
    system.info = info;
    // A reader never returns what Batch.fromSystems would refuse (damage that decodes to numbers).
    try {
      normalizeSystem(system, s, METAL, 'readZarr');
    } catch (error) {
      throw damaged(path, `system ${s}`, (error as Error).message.replace(/^readZarr: /, ''), error);
    }
    return { symbols: (system.atomicNumbers as number[]).map(chemicalSymbol), ...system };
  });
}

/** The JSON object of one system's info bytes (those at byte `offset` of meta/info). */
function infoOf(bytes: Uint8Array, decoder: TextDecoder, path: string, s: number, offset: number): Record<string, unknown> {
  if (bytes.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch (error) {
    const chunk = Math.floor(offset / INFO_CHUNK_BYTES);
    throw damaged(path, `meta/info/c/${chunk} (system ${s}, bytes ${offset}..${offset + bytes.length})`, `the info is not JSON: ${(error as Error).message}`, error);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw damaged(path, `meta/info (system ${s})`, `the info must be a JSON object, got ${JSON.stringify(value)?.slice(0, 40)}`);
  }
  return value as Record<string, unknown>;
}
