// Appends systems to a ragged Zarr v3 store (layout.ts) through zarrita. Each append writes the new
// rows of every array first, then each array's metadata with its grown shape, and `meta/atoms_ptr`'s
// metadata last: readers take the system count from atoms_ptr, so an interrupted append is invisible.
import * as zarr from 'zarrita';

import { normalizeSystem, unitSystem } from '../../data/index.js';
import type { System } from '../../data/index.js';
import { HookmdTypeError, isHookmdError } from '../../errors.js';
import { zarrCodecs } from './gzip.js';
import { chunkRows, ZARR_ARRAYS, ZARR_LAYOUT, type ZarrArraySpec, type ZarrChunking } from './layout.js';
import { AtomicFileSystemStore } from './store.js';

type Column = ArrayLike<number> | ArrayLike<bigint>;

/** One system, validated and flattened: its rows of every array (absent float fields are NaN). */
export interface ZarrRecord {
  readonly numAtoms: number;
  readonly columns: ReadonlyMap<string, Column>;
}

const METAL = unitSystem('metal');
const encoder = new TextEncoder();

function encodeJson(value: unknown): Uint8Array {
  // Zarr v3 spells non-finite fill values as strings.
  return encoder.encode(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2));
}

function infoBytes(info: Record<string, unknown>, where: string): Uint8Array {
  if (Object.keys(info).length === 0) return new Uint8Array(0);
  let text: string;
  try {
    text = JSON.stringify(info, (key, v: unknown) => {
      if (typeof v === 'function' || typeof v === 'symbol') {
        throw new HookmdTypeError('INVALID_INFO', `${where}.info.${key} is a ${typeof v}, which has no JSON form`, { field: `info.${key}` });
      }
      if (typeof v === 'bigint') return Number(v);
      return ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : v;
    });
  } catch (error) {
    if (isHookmdError(error)) throw error;
    // JSON.stringify's own refusal: an info that contains itself (or a toJSON that throws).
    throw new HookmdTypeError('INVALID_INFO', `${where}.info has no JSON form: ${(error as Error).message.split('\n')[0]}`, { field: 'info', cause: error });
  }
  return encoder.encode(text);
}

const count = (v: unknown): bigint | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : undefined);

/** Validates `system` (as Batch.fromSystems does) and lays it out as one record. */
export function zarrRecord(system: System, index: number, operation: string): ZarrRecord {
  const s = normalizeSystem(system, index, METAL, operation);
  const n = s.numAtoms;
  const nan = (length: number): Float64Array => new Float64Array(length).fill(NaN);
  // systemId, converged and steps get arrays of their own when they fit them; the rest is JSON.
  const { systemId, converged, steps, ...rest } = s.info;
  const id = count(systemId);
  const step = count(steps);
  const flag = typeof converged === 'boolean' ? converged : undefined;
  const json: Record<string, unknown> = { ...rest };
  if (systemId !== undefined && id === undefined) json.systemId = systemId;
  if (converged !== undefined && flag === undefined) json.converged = converged;
  if (steps !== undefined && step === undefined) json.steps = steps;
  const columns = new Map<string, Column>([
    ['core/atomic_numbers', s.atomicNumbers],
    ['core/positions', s.positions],
    ['core/masses', system.masses !== undefined ? s.masses : nan(n)],
    ['core/velocities', system.velocities !== undefined ? s.velocities : nan(3 * n)],
    ['core/forces', s.forces ?? nan(3 * n)],
    ['core/energy', [s.energy ?? NaN]],
    ['core/cell', s.cell],
    ['core/pbc', s.pbc],
    ['core/stress', s.stress ?? nan(9)],
    ['meta/system_id', [id ?? -1n]],
    ['meta/converged', [flag === undefined ? -1 : Number(flag)]],
    ['meta/steps', [step ?? -1n]],
    ['meta/info', infoBytes(json, `${operation}: systems[${index}]`)],
  ]);
  return { numAtoms: n, columns };
}

type Block = Float64Array | Int32Array | Int8Array | Uint8Array | BigInt64Array;
const TYPED: Record<ZarrArraySpec['dtype'], new (length: number) => Block> = {
  float64: Float64Array,
  int64: BigInt64Array,
  int32: Int32Array,
  int8: Int8Array,
  uint8: Uint8Array,
};

function isFill(block: Block, fill: number): boolean {
  if (block instanceof BigInt64Array) return block.every((v) => v === BigInt(fill));
  return Number.isNaN(fill) ? (block as Float64Array).every(Number.isNaN) : (block as Float64Array).every((v) => v === fill);
}

/** The arrays of one store and their committed lengths along axis 0. */
export class ZarrAppender {
  readonly #store: AtomicFileSystemStore;
  readonly #chunking: ZarrChunking;
  readonly #rows = new Map<string, number>();
  // The last value of each pointer array, so appends never read the store back.
  readonly #ends = new Map<string, bigint>([
    ['meta/atoms_ptr', 0n],
    ['meta/info_ptr', 0n],
  ]);
  #created = false;

  constructor(root: string, chunking: ZarrChunking) {
    this.#store = new AtomicFileSystemStore(root);
    this.#chunking = chunking;
  }

  /** Appends `records` (all of them, or, as readers see it, none). */
  async append(records: readonly ZarrRecord[]): Promise<void> {
    try {
      await this.#append(records);
    } catch (error) {
      // The failed append's sibling chunk writes finish first, so the store is quiet when the caller looks.
      await this.#store.settled();
      throw error;
    }
  }

  async #append(records: readonly ZarrRecord[]): Promise<void> {
    if (!this.#created) await this.#create();
    const ends = new Map(this.#ends);
    const grown = new Map<string, number>();
    for (const spec of ZARR_ARRAYS) {
      const block = this.#block(spec, records, ends);
      const width = spec.inner.reduce((a, b) => a * b, 1);
      const start = this.#rows.get(spec.path) as number;
      const added = block.length / width;
      grown.set(spec.path, start + added);
      if (added === 0 || isFill(block, spec.fill)) continue;
      const array = new zarr.Array(this.#store, `/${spec.path}`, this.#metadata(spec, start + added) as never);
      const selection = [zarr.slice(start, start + added), ...spec.inner.map(() => null)];
      const shape = [added, ...spec.inner];
      const stride = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
      await zarr.set(array as never, selection, { data: block, shape, stride } as never);
    }
    // Metadata after data, and atoms_ptr (the last spec) after everything else.
    for (const spec of ZARR_ARRAYS) {
      await this.#store.set(`/${spec.path}/zarr.json`, encodeJson(this.#metadata(spec, grown.get(spec.path) as number)));
    }
    for (const [path, rows] of grown) this.#rows.set(path, rows);
    for (const [path, end] of ends) this.#ends.set(path, end);
  }

  /** The new rows of `spec` for `records`; pointer arrays continue from `ends`, which they advance. */
  #block(spec: ZarrArraySpec, records: readonly ZarrRecord[], ends: Map<string, bigint>): Block {
    if (spec.axis === 'pointer') {
      const source = spec.path === 'meta/atoms_ptr' ? 'core/atomic_numbers' : 'meta/info';
      let end = ends.get(spec.path) as bigint;
      const block = BigInt64Array.from(records, (r) => (end += BigInt((r.columns.get(source) as Column).length)));
      ends.set(spec.path, end);
      return block;
    }
    const parts = records.map((r) => r.columns.get(spec.path) as Column);
    const block = new TYPED[spec.dtype](parts.reduce((sum, p) => sum + p.length, 0));
    let offset = 0;
    for (const part of parts) {
      (block as Float64Array).set(part as ArrayLike<number>, offset);
      offset += part.length;
    }
    return block;
  }

  #metadata(spec: ZarrArraySpec, rows: number): Record<string, unknown> {
    return {
      zarr_format: 3,
      node_type: 'array',
      shape: [rows, ...spec.inner],
      data_type: spec.dtype,
      chunk_grid: { name: 'regular', configuration: { chunk_shape: [chunkRows(spec, this.#chunking), ...spec.inner] } },
      chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
      codecs: zarrCodecs(this.#chunking.compression),
      fill_value: spec.fill,
      attributes: {},
    };
  }

  /**
   * Writes the groups and empty arrays (pointer arrays start as [0]), the root group last: a creation
   * interrupted before it leaves no store a reader would open, only files the next creation overwrites.
   */
  async #create(): Promise<void> {
    const group = (attributes: Record<string, unknown>): Uint8Array => encodeJson({ zarr_format: 3, node_type: 'group', attributes });
    await this.#store.set('/core/zarr.json', group({}));
    await this.#store.set('/meta/zarr.json', group({}));
    for (const spec of ZARR_ARRAYS) {
      const rows = spec.axis === 'pointer' ? 1 : 0;
      await this.#store.set(`/${spec.path}/zarr.json`, encodeJson(this.#metadata(spec, rows)));
      this.#rows.set(spec.path, rows);
    }
    await this.#store.set('/zarr.json', group({ hookmd: { ...ZARR_LAYOUT, ...this.#chunking } }));
    this.#created = true;
  }
}
