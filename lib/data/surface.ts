// Surface slabs, made as ASE's ase.build.fcc100/fcc110/fcc111/bcc100/bcc110 make them (its _surface):
// layers stacked along z from the bottom, atoms ordered layer by layer from the bottom, then row by row.
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { referenceState } from './build.js';
import { atomicNumber } from './elements.js';
import type { System } from './system.js';
import { showText, showValue } from '../describe-value.js';

/** The slabs `surface` builds. */
export type SurfaceKind = 'fcc100' | 'fcc110' | 'fcc111' | 'bcc100' | 'bcc110';

/**
 * Options of `surface`.
 *
 * @example
 * const options: SurfaceOptions = { size: [2, 2, 4], vacuum: 10, a: 3.615 };
 */
export interface SurfaceOptions {
  /** Repeats along the two surface vectors and the number of layers. */
  size: readonly [number, number, number];
  /** Vacuum (Å) above and below the slab; the cell's third vector then spans slab + 2·vacuum. Default: none (zero third vector). */
  vacuum?: number;
  /** Lattice constant (Å). Default: the element's reference value when its structure matches. */
  a?: number;
  /** fcc111 and bcc110: an orthogonal cell (needs an even size[1]); ASE's default is false. fcc100/110, bcc100 are always orthogonal. */
  orthogonal?: boolean;
}

const KINDS: readonly SurfaceKind[] = ['fcc100', 'fcc110', 'fcc111', 'bcc100', 'bcc110'];

/** ASE's unit cell of each slab (in units of a): three lengths, or with `skewed` the second row shifted by half the first. */
const UNIT_CELL: Record<SurfaceKind, readonly [number, number, number]> = {
  fcc100: [Math.sqrt(0.5), Math.sqrt(0.5), 0.5],
  fcc110: [1.0, Math.sqrt(0.5), Math.sqrt(0.125)],
  bcc100: [1.0, 1.0, 0.5],
  fcc111: [Math.sqrt(0.5), Math.sqrt(0.375), 1 / Math.sqrt(3)],
  bcc110: [1.0, Math.sqrt(0.5), Math.sqrt(0.5)],
};

function checkSize(size: unknown): [number, number, number] {
  if (!Array.isArray(size) || size.length !== 3 || size.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new HookmdRangeError('INVALID_SIZE', `surface: size must be three integers >= 1 ([nx, ny, layers]), got ${showValue(size)}`, { field: 'size', value: size });
  }
  return size as [number, number, number];
}

/**
 * In-plane offset (in lattice-grid units) of the atom in layer `k` from the top (0 = top layer) and row `iy`,
 * as ASE's _surface shifts them.
 */
function offset(kind: SurfaceKind, orthogonal: boolean, k: number, iy: number): [number, number] {
  switch (kind) {
    case 'fcc100':
    case 'fcc110':
    case 'bcc100':
      return k % 2 === 1 ? [0.5, 0.5] : [0, 0];
    case 'fcc111': {
      if (!orthogonal) return k % 3 === 1 ? [-1 / 3, 2 / 3] : k % 3 === 2 ? [1 / 3, 1 / 3] : [0, 0];
      const odd = iy % 2 === 1;
      if (k % 3 === 0) return [odd ? 0.5 : 0, 0];
      if (k % 3 === 1) return [odd ? 0.5 : 0, 2 / 3];
      return [(odd ? -0.5 : 0) + 0.5, 1 / 3];
    }
    case 'bcc110':
      if (!orthogonal) return k % 2 === 1 ? [-0.5, 1.0] : [0, 0];
      return [(iy % 2 === 1 ? 0.5 : 0), k % 2 === 1 ? 1.0 : 0];
  }
}

/**
 * A surface slab, as `ase.build.fcc111(symbol, size, a, vacuum)` and friends build it: `size[2]` layers
 * stacked along z (the bottom layer at z = vacuum), periodic in the surface plane only (pbc [true, true,
 * false]). Atoms run layer by layer from the bottom; `info.arrays.tags` numbers the layers from the top
 * (1 = top), as ASE's tags do.
 *
 * @example
 * const slab = surface('Cu', 'fcc111', { size: [2, 2, 3], vacuum: 10 });
 */
export function surface(symbol: string, kind: SurfaceKind, options: SurfaceOptions): System {
  atomicNumber(symbol);
  if (!KINDS.includes(kind)) {
    throw new HookmdTypeError('UNKNOWN_STRUCTURE', `surface: kind must be one of ${KINDS.join(', ')}, got ${showValue(kind)}`, { field: 'kind', value: kind });
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    const size = Array.isArray(options) ? JSON.stringify(options) : '[nx, ny, layers]';
    throw new HookmdTypeError('INVALID_OPTIONS', `surface: options must be an object with size: surface('${symbol}', '${kind}', { size: ${size} }) (ASE's size keyword)`, {
      field: 'options',
      value: options,
    });
  }
  checkKeys('surface', options, ['size', 'vacuum', 'a', 'orthogonal'], '', { layers: 'the layers are size[2]: { size: [nx, ny, layers] }' });
  const size = checkSize(options.size);
  const structure = kind.slice(0, 3) as 'fcc' | 'bcc';
  const reference = referenceState(symbol);
  const a = options.a ?? (reference?.[0] === structure ? reference[1] : undefined);
  if (a === undefined) {
    throw new HookmdError('MISSING_LATTICE', `surface: no reference lattice constant for ${structure} ${symbol}; pass { a }`, { field: 'a' });
  }
  if (!(Number.isFinite(a) && a > 0)) throw new HookmdRangeError('INVALID_LATTICE', `surface: a must be a finite number > 0, got ${showText(a)}`, { field: 'a', value: a });
  const { vacuum } = options;
  if (vacuum !== undefined && !(Number.isFinite(vacuum) && vacuum >= 0)) {
    throw new HookmdRangeError('INVALID_VACUUM', `surface: vacuum must be a finite number >= 0, got ${showText(vacuum)}`, { field: 'vacuum', value: vacuum });
  }
  const skewable = kind === 'fcc111' || kind === 'bcc110';
  const orthogonal = skewable ? options.orthogonal === true : true;
  if (!skewable && options.orthogonal === false) {
    throw new HookmdTypeError('INVALID_OPTIONS', `surface: ${kind} slabs are always orthogonal`, { field: 'orthogonal', value: false });
  }
  if (skewable && orthogonal && size[1] % 2 === 1) {
    throw new HookmdRangeError('INVALID_SIZE', `surface: an orthogonal ${kind} cell needs an even size[1], got ${showText(size[1])}`, { field: 'size', value: size });
  }
  const [c0, c1, c2] = UNIT_CELL[kind];
  const unit = skewable && !orthogonal ? [[c0, 0, 0], [c0 / 2, c1, 0], [0, 0, c2]] : [[c0, 0, 0], [0, c1, 0], [0, 0, c2]];
  const [nx, ny, nz] = size;
  const positions: number[][] = [];
  const tags: number[] = [];
  for (let iz = 0; iz < nz; iz++) {
    const k = nz - 1 - iz;
    for (let iy = 0; iy < ny; iy++) {
      for (let ix = 0; ix < nx; ix++) {
        const [dx, dy] = offset(kind, orthogonal, k, iy);
        const grid = [ix + dx, iy + dy, iz];
        positions.push([0, 1, 2].map((c) => a * (grid[0] * unit[0][c] + grid[1] * unit[1][c] + grid[2] * unit[2][c])));
        tags.push(nz - iz);
      }
    }
  }
  const cell = [0, 1].map((r) => unit[r].map((x) => a * x * size[r]));
  if (vacuum === undefined) {
    cell.push([0, 0, 0]);
  } else {
    // ASE's Atoms.center(vacuum, axis=2): the bottom layer moves to z = vacuum, the cell spans slab + 2·vacuum.
    const zs = positions.map((p) => p[2]);
    const low = Math.min(...zs);
    const high = Math.max(...zs);
    for (const p of positions) p[2] += vacuum - low;
    cell.push([0, 0, high - low + 2 * vacuum]);
  }
  return {
    symbols: positions.map(() => symbol),
    positions,
    cell,
    pbc: [true, true, false],
    info: { arrays: { tags } },
  };
}
