// The ragged Zarr layout of ZarrSink and readZarr (after nvalchemi's ZarrData): per-atom arrays of all
// systems concatenated along axis 0, per-system arrays with one row per system, and CSR pointers
// (`meta/atoms_ptr`) that say which atoms belong to which system. docs/formats.md describes it.

/** How an array is indexed along axis 0. */
export type ZarrAxis = 'atom' | 'system' | 'pointer' | 'byte';

/** One array of the layout. */
export interface ZarrArraySpec {
  /** Path below the root, e.g. 'core/positions'. */
  readonly path: string;
  readonly dtype: 'float64' | 'int64' | 'int32' | 'int8' | 'uint8';
  readonly axis: ZarrAxis;
  /** The shape after axis 0. */
  readonly inner: readonly number[];
  /** Rows never written read as this; NaN marks "the system had no such field". */
  readonly fill: number;
}

/** Layout name and version in the root group's attributes. */
export const ZARR_LAYOUT: { readonly name: 'hookmd-ragged'; readonly version: 1 } = { name: 'hookmd-ragged', version: 1 };

/** Every array, in the order a flush writes them; `meta/atoms_ptr` is last: it commits the flush. */
export const ZARR_ARRAYS: readonly ZarrArraySpec[] = [
  { path: 'core/atomic_numbers', dtype: 'int32', axis: 'atom', inner: [], fill: 0 },
  { path: 'core/positions', dtype: 'float64', axis: 'atom', inner: [3], fill: 0 },
  { path: 'core/masses', dtype: 'float64', axis: 'atom', inner: [], fill: NaN },
  { path: 'core/velocities', dtype: 'float64', axis: 'atom', inner: [3], fill: NaN },
  { path: 'core/forces', dtype: 'float64', axis: 'atom', inner: [3], fill: NaN },
  { path: 'core/energy', dtype: 'float64', axis: 'system', inner: [], fill: NaN },
  { path: 'core/cell', dtype: 'float64', axis: 'system', inner: [3, 3], fill: 0 },
  { path: 'core/pbc', dtype: 'uint8', axis: 'system', inner: [3], fill: 0 },
  { path: 'core/stress', dtype: 'float64', axis: 'system', inner: [3, 3], fill: NaN },
  { path: 'meta/system_id', dtype: 'int64', axis: 'system', inner: [], fill: -1 },
  { path: 'meta/converged', dtype: 'int8', axis: 'system', inner: [], fill: -1 },
  { path: 'meta/steps', dtype: 'int64', axis: 'system', inner: [], fill: -1 },
  { path: 'meta/info', dtype: 'uint8', axis: 'byte', inner: [], fill: 0 },
  { path: 'meta/info_ptr', dtype: 'int64', axis: 'pointer', inner: [], fill: 0 },
  { path: 'meta/atoms_ptr', dtype: 'int64', axis: 'pointer', inner: [], fill: 0 },
];

/** How a store's chunks are compressed. */
export type ZarrCompression = 'gzip' | 'none';

/** Chunk lengths along axis 0, and the chunks' compression. */
export interface ZarrChunking {
  /** Rows per chunk of per-atom arrays (default 65536). */
  readonly chunkAtoms: number;
  /** Rows per chunk of per-system and pointer arrays (default 4096). */
  readonly chunkSystems: number;
  /** How chunks are compressed: `'gzip'` (level 5, the default) or `'none'`. */
  readonly compression: ZarrCompression;
}

/** Bytes per chunk of `meta/info`. */
export const INFO_CHUNK_BYTES: number = 1 << 20;

/** Chunk length along axis 0 of `spec`. */
export function chunkRows(spec: ZarrArraySpec, chunking: ZarrChunking): number {
  if (spec.axis === 'atom') return chunking.chunkAtoms;
  if (spec.axis === 'byte') return INFO_CHUNK_BYTES;
  return chunking.chunkSystems;
}
