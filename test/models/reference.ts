// Plain-JS references for the model tests: pair formulas, brute-force sums over periodic images, structure
// builders and a seeded RNG. Nothing here calls native code, so the tests compare two independent paths.
import type { System } from '../../lib/data/index.js';

export type PairFunction = (r: number, zi: number, zj: number) => number;

/** 4ε[(σ/r)¹² − (σ/r)⁶], shifted to 0 at rc when `shift`. */
export function lennardJonesPair(epsilon: number, sigma: number, rc: number, shift = false): (r: number) => number {
  const bare = (r: number): number => 4 * epsilon * ((sigma / r) ** 12 - (sigma / r) ** 6);
  const offset = shift ? bare(rc) : 0;
  return (r) => (r < rc ? bare(r) - offset : 0);
}

/** D[e^{−2α(r−r₀)} − 2e^{−α(r−r₀)}], shifted to 0 at rc when `shift`. */
export function morsePair(D: number, alpha: number, r0: number, rc: number, shift = false): (r: number) => number {
  const bare = (r: number): number => D * (Math.exp(-2 * alpha * (r - r0)) - 2 * Math.exp(-alpha * (r - r0)));
  const offset = shift ? bare(rc) : 0;
  return (r) => (r < rc ? bare(r) - offset : 0);
}

/** The XPLOR switch S(r) between ron and rc, written from its definition. */
export function xplorSwitch(ron: number, rc: number): (r: number) => number {
  return (r) => {
    if (r <= ron) return 1;
    if (r >= rc) return 0;
    return ((rc ** 2 - r ** 2) ** 2 * (rc ** 2 + 2 * r ** 2 - 3 * ron ** 2)) / (rc ** 2 - ron ** 2) ** 3;
  };
}

function rowsOf(cell: number[][] | undefined): number[][] {
  return cell ?? [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
}

function pbcOf(pbc: System['pbc']): boolean[] {
  if (pbc === undefined || typeof pbc === 'boolean') return [pbc === true, pbc === true, pbc === true];
  return [0, 1, 2].map((k) => Boolean(pbc[k]));
}

function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** Number of lattice images per direction that can hold a neighbor within `range`. */
function imageRange(cell: number[][], pbc: boolean[], range: number): number[] {
  const volume = Math.abs(cross(cell[0], cell[1]).reduce((s, v, c) => s + v * cell[2][c], 0));
  return [0, 1, 2].map((k) => {
    if (!pbc[k]) return 0;
    const n = cross(cell[(k + 1) % 3], cell[(k + 2) % 3]);
    const width = volume / Math.hypot(n[0], n[1], n[2]);
    return Math.ceil(range / width) + 1;
  });
}

interface Flat {
  x: number[][];
  z: number[];
  cell: number[][];
  pbc: boolean[];
}

function flat(system: System): Flat {
  const p = system.positions as number[][];
  return { x: p, z: (system.atomicNumbers as number[]) ?? p.map(() => 18), cell: rowsOf(system.cell as number[][]), pbc: pbcOf(system.pbc) };
}

/**
 * Visits every unordered pair (i, j, lattice translation) closer than `range` once, self-images included:
 * E = ½ Σ_i Σ_(j,n)≠(i,0) φ — the definition, by brute force over a generous box of images. `image` is the
 * lattice translation n of j (r = x_j + n·cell − x_i).
 */
export function forEachPair(system: System, range: number, visit: (i: number, j: number, r: number, image: [number, number, number]) => void): void {
  const { x, cell, pbc } = flat(system);
  const m = imageRange(cell, pbc, range);
  for (let i = 0; i < x.length; i++) {
    for (let j = i; j < x.length; j++) {
      for (let a = -m[0]; a <= m[0]; a++) {
        for (let b = -m[1]; b <= m[1]; b++) {
          for (let c = -m[2]; c <= m[2]; c++) {
            if (i === j && (a > 0 || (a === 0 && (b > 0 || (b === 0 && c >= 0))))) continue;
            const d = [0, 1, 2].map((k) => x[j][k] + a * cell[0][k] + b * cell[1][k] + c * cell[2][k] - x[i][k]);
            const r = Math.hypot(d[0], d[1], d[2]);
            if (r < range) visit(i, j, r, [a, b, c]);
          }
        }
      }
    }
  }
}

/** Σ over pairs of φ(r, z_i, z_j), by brute force. */
export function bruteEnergy(system: System, range: number, pair: PairFunction): number {
  const { z } = flat(system);
  let energy = 0;
  forEachPair(system, range, (i, j, r) => {
    energy += pair(r, z[i], z[j]);
  });
  return energy;
}

/** A deterministic RNG in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n random points in a cube of side `box`, no two closer than `minDistance`. */
export function randomCluster(n: number, box: number, minDistance: number, seed: number): number[][] {
  const random = rng(seed);
  const points: number[][] = [];
  while (points.length < n) {
    const p = [random() * box, random() * box, random() * box];
    if (points.every((q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) >= minDistance)) points.push(p);
  }
  return points;
}

/** Conventional fcc cell of side a, repeated n×n×n. */
export function fcc(a: number, n: number): { positions: number[][]; cell: number[][] } {
  const basis = [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]];
  const positions: number[][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) for (const q of basis) positions.push([(i + q[0]) * a, (j + q[1]) * a, (k + q[2]) * a]);
  return { positions, cell: [[n * a, 0, 0], [0, n * a, 0], [0, 0, n * a]] };
}

/** Random displacements of at most `amplitude` per component. */
export function rattled(positions: number[][], amplitude: number, seed: number): number[][] {
  const random = rng(seed);
  return positions.map((p) => p.map((v) => v + amplitude * (2 * random() - 1)));
}

/** Largest |a − b| over two arrays. */
export function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

/** Largest |value| of an array. */
export function maxAbs(a: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]));
  return worst;
}
