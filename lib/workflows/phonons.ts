// Phonons by finite displacements, with the conventions of ASE's `ase.phonons.Phonons` (3.22): every atom of
// the cell is displaced by ±δ along x, y and z in a supercell, all 6n displaced supercells are evaluated as
// one batch, and the force constants are C_N[n][3a+i][3b+j] = (F⁻ − F⁺)_{nb,j} / 2δ with Frederiksen's
// correction (the displaced atom's force made to balance the others), then symmetrised and given the acoustic
// sum rule, three times over, as ASE's read() does. The dynamical matrix at q is the Fourier sum over the
// supercell's cells (their lattice vectors wrapped into [−N/2, N/2)), mass-weighted, and its eigenvalues give
// ħω; a negative one is reported as a negative frequency, as ASE does.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { Batch, determinant3, repeat } from '../data/index.js';
import type { System } from '../data/index.js';
import type { Model } from '../models/index.js';
import { checkKeys } from '../option-keys.js';
import { hermitianEigenvalues } from './hermitian-eigenvalues.js';
import { showValue } from '../describe-value.js';
import type { WorkflowProgressCallback } from './workflow-progress.js';

/** Options of `phonons`. */
export interface PhononOptions {
  /** Repeats of the cell in the supercell, [n1, n2, n3] or one n for all; default [1, 1, 1] (as ASE). */
  supercell?: readonly [number, number, number] | number;
  /** Displacement δ (Å); default 0.01 (as ASE). */
  displacement?: number;
  /** Restore the acoustic sum rule; default true. */
  acoustic?: boolean;
  /** Rounds of symmetrisation (each followed by the sum rule); default 3 (as ASE). */
  symmetrize?: number;
  /** Told before and after the one force call over every displaced supercell (stage 'forces', in systems). */
  onProgress?: WorkflowProgressCallback;
}

/** Frequency units: THz (ν = ω/2π), meV and eV (ħω). */
export type PhononUnit = 'THz' | 'meV' | 'eV';

/** The result of `phonons`: force constants, and frequencies at any q. */
export interface PhononResult {
  readonly supercell: readonly [number, number, number];
  /** N matrices of (3n)², eV/Å², the cells of the supercell in ASE's order; row 3a+i is atom a displaced along i. */
  readonly forceConstants: readonly Float64Array[];
  /** The 3n frequencies at q (reduced coordinates of the reciprocal lattice), ascending; THz by default. */
  frequencies(q: readonly [number, number, number], unit?: PhononUnit): Float64Array;
  /** frequencies() at every q of `path`. */
  bandStructure(path: readonly (readonly [number, number, number])[], unit?: PhononUnit): Float64Array[];
  /**
   * The density of states on a Monkhorst–Pack grid of `kpts` q points (as ASE's monkhorst_pack), as a
   * histogram of `bins` bins over [min, max] of the frequencies, normalised to 3n states.
   */
  dos(options?: { kpts?: readonly [number, number, number]; bins?: number; unit?: PhononUnit }): { frequencies: Float64Array; dos: Float64Array };
}

// ħ/√(e·amu)·1e10: √(eV/Å²/amu) → eV (ASE's `s`), and h in eV·s for THz; CODATA 2018.
const HBAR = 1.054571817e-34;
const E_CHARGE = 1.602176634e-19;
const AMU = 1.6605390666e-27;
const TO_EV = (HBAR * 1e10) / Math.sqrt(E_CHARGE * AMU);
const H_EV_S = (2 * Math.PI * HBAR) / E_CHARGE;

function convert(ev: number, unit: PhononUnit): number {
  return unit === 'eV' ? ev : unit === 'meV' ? 1000 * ev : ev / H_EV_S / 1e12;
}

function supercellOf(value: unknown): [number, number, number] {
  const counts = value === undefined ? [1, 1, 1] : typeof value === 'number' ? [value, value, value] : Array.isArray(value) ? [...value] : [];
  if (counts.length !== 3 || counts.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new HookmdRangeError('INVALID_PARAMETER', `phonons: supercell must be three integers >= 1 (or one), got ${showValue(value)}`, { field: 'supercell', value });
  }
  return counts as [number, number, number];
}

/** The distance between opposite faces of the cell spanned by `rows` along each lattice direction. */
function heights(rows: readonly (readonly number[])[]): number[] {
  const [a, b, c] = rows as [number[], number[], number[]];
  const cross = (u: number[], v: number[]): number[] => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const volume = Math.abs(determinant3(rows.flat()));
  return [cross(b, c), cross(c, a), cross(a, b)].map((n) => volume / Math.hypot(...n));
}

/** ASE's lattice vectors of the supercell's cells (offset 0): C-order indices wrapped into [−N/2, N/2). */
function latticeVectors(supercell: readonly [number, number, number]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < supercell[0]; i++) {
    for (let j = 0; j < supercell[1]; j++) {
      for (let k = 0; k < supercell[2]; k++) {
        out.push([i, j, k].map((x, c) => {
          const n = supercell[c] as number;
          const half = Math.floor(n / 2);
          return ((x + half) % n) - half;
        }));
      }
    }
  }
  return out;
}

/** ASE's symmetrize(): C_lmn made symmetric under (R, a, b) → (−R, b, a), the cells shifted to centre the reference one. */
function symmetrize(forceConstants: Float64Array[], supercell: readonly [number, number, number], m: number): Float64Array[] {
  const [n0, n1, n2] = supercell;
  const index = (i: number, j: number, k: number): number => (i * n1 + j) * n2 + k;
  // fftshift: shifted[x] = C[(x − n/2) mod n].
  const shift = (x: number, n: number, by: number): number => (((x + by) % n) + n) % n;
  const shifted = (cells: Float64Array[], sign: number): Float64Array[] => {
    const out: Float64Array[] = new Array(cells.length);
    for (let i = 0; i < n0; i++) {
      for (let j = 0; j < n1; j++) {
        for (let k = 0; k < n2; k++) {
          out[index(i, j, k)] = cells[index(shift(i, n0, sign * Math.floor(n0 / 2)), shift(j, n1, sign * Math.floor(n1 / 2)), shift(k, n2, sign * Math.floor(n2 / 2)))] as Float64Array;
        }
      }
    }
    return out;
  };
  const centred = shifted(forceConstants, -1).map((c) => Float64Array.from(c));
  const [i0, j0, k0] = supercell.map((n) => 1 - (n % 2)) as [number, number, number];
  const source = centred.map((c) => Float64Array.from(c));
  for (let i = i0; i < n0; i++) {
    for (let j = j0; j < n1; j++) {
      for (let k = k0; k < n2; k++) {
        const target = centred[index(i, j, k)] as Float64Array;
        const mirror = source[index(n0 - 1 - (i - i0), n1 - 1 - (j - j0), n2 - 1 - (k - k0))] as Float64Array;
        for (let r = 0; r < m; r++) for (let c = 0; c < m; c++) target[r * m + c] = 0.5 * ((source[index(i, j, k)] as Float64Array)[r * m + c]! + mirror[c * m + r]!);
      }
    }
  }
  return shifted(centred, 1);
}

/** ASE's acoustic(): the reference cell's diagonal blocks take minus the sum of every other block of their row. */
function acousticSumRule(forceConstants: Float64Array[], atoms: number): void {
  const m = 3 * atoms;
  const copy = forceConstants.map((c) => Float64Array.from(c));
  const reference = forceConstants[0] as Float64Array;
  for (const cell of copy) {
    for (let a = 0; a < atoms; a++) {
      for (let b = 0; b < atoms; b++) {
        for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) reference[(3 * a + i) * m + 3 * a + j]! -= cell[(3 * a + i) * m + 3 * b + j]!;
      }
    }
  }
}

/**
 * The phonons of a periodic `system` with `model`: force constants from one batch of 6n displaced supercells.
 *
 * @example
 * const argon = await phonons(new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 10.2, shift: true }), primitiveArgon, { supercell: 7 });
 * argon.frequencies([0.5, 0.5, 0.5]); // THz at L
 */
export async function phonons(model: Model, system: System, options: PhononOptions = {}): Promise<PhononResult> {
  if (model === null || typeof model !== 'object' || typeof (model as Model).compute !== 'function') {
    throw new HookmdTypeError('INVALID_MODEL', 'phonons: model must be a model (an object with compute(batch, options))', { field: 'model', value: model });
  }
  if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', 'phonons: options must be an object', { field: 'options', value: options });
  checkKeys('phonons', options, ['supercell', 'displacement', 'acoustic', 'symmetrize', 'onProgress'], '', { delta: 'displacement' });
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new HookmdTypeError('INVALID_OPTIONS', `phonons: onProgress must be a function, got ${showValue(options.onProgress)}`, { field: 'onProgress', value: options.onProgress });
  }
  const supercell = supercellOf(options.supercell);
  const delta = options.displacement ?? 0.01;
  if (typeof delta !== 'number' || !Number.isFinite(delta) || !(delta > 0)) {
    throw new HookmdRangeError('INVALID_PARAMETER', `phonons: displacement must be a number > 0, got ${showValue(delta)}`, { field: 'displacement', value: delta });
  }
  const rounds = options.symmetrize ?? 3;
  if (!Number.isInteger(rounds) || rounds < 0) {
    throw new HookmdRangeError('INVALID_PARAMETER', `phonons: symmetrize must be an integer >= 0, got ${showValue(rounds)}`, { field: 'symmetrize', value: rounds });
  }
  const cell = system?.cell as number[][] | undefined;
  const pbc = system?.pbc;
  if (cell === undefined || !(pbc === true || (Array.isArray(pbc) && pbc.every(Boolean)))) {
    throw new HookmdTypeError('INVALID_PBC', 'phonons: the system must be periodic in x, y and z (pbc: true, with a cell)', { field: 'pbc', value: pbc });
  }
  // The supercell must hold a displaced atom's whole range once: each height at least twice the cutoff.
  const height = heights(cell).map((h, c) => h * (supercell[c] as number));
  const needed = 2 * model.cutoff;
  const short = height.findIndex((h) => h < needed);
  if (Number.isFinite(needed) && short >= 0) {
    const minimum = heights(cell).map((h) => Math.ceil(needed / h));
    throw new HookmdRangeError('INVALID_SUPERCELL', `phonons: the supercell is ${height[short]?.toFixed(3)} Å high along lattice vector ${short + 1}, less than twice the model's cutoff (${needed} Å): use supercell [${minimum.join(', ')}] or larger`, {
      field: 'supercell',
      value: supercell,
    });
  }
  const base = { ...system, pbc: true, velocities: undefined, forces: undefined, energy: undefined, stress: undefined };
  const big = repeat(base, supercell);
  const atoms = (system.positions as unknown[]).length;
  const positions = big.positions as number[][];
  const displaced: System[] = [];
  for (let a = 0; a < atoms; a++) {
    for (let i = 0; i < 3; i++) {
      for (const sign of [-1, 1]) {
        const moved = positions.map((p) => [...p]);
        (moved[a] as number[])[i] += sign * delta;
        displaced.push({ ...big, positions: moved });
      }
    }
  }
  const batch = Batch.fromSystems(displaced, { units: 'metal' });
  options.onProgress?.({ stage: 'forces', done: 0, total: displaced.length, unit: 'systems' });
  await model.compute(batch);
  options.onProgress?.({ stage: 'forces', done: displaced.length, total: displaced.length, unit: 'systems' });
  const forces = batch.read('forces');
  const total = positions.length;
  const cells = supercell[0] * supercell[1] * supercell[2];
  const m = 3 * atoms;
  let forceConstants: Float64Array[] = Array.from({ length: cells }, () => new Float64Array(m * m));
  for (let a = 0; a < atoms; a++) {
    for (let i = 0; i < 3; i++) {
      const minus = forces.slice(3 * total * (2 * (3 * a + i)), 3 * total * (2 * (3 * a + i) + 1));
      const plus = forces.slice(3 * total * (2 * (3 * a + i) + 1), 3 * total * (2 * (3 * a + i) + 2));
      // Frederiksen: the displaced atom's force balances the others'.
      for (const f of [minus, plus]) {
        const sum = [0, 0, 0];
        for (let b = 0; b < total; b++) for (let j = 0; j < 3; j++) sum[j]! += f[3 * b + j]!;
        for (let j = 0; j < 3; j++) f[3 * a + j]! -= sum[j]!;
      }
      for (let n = 0; n < cells; n++) {
        for (let b = 0; b < atoms; b++) {
          for (let j = 0; j < 3; j++) {
            const k = 3 * (n * atoms + b) + j;
            (forceConstants[n] as Float64Array)[(3 * a + i) * m + 3 * b + j] = (minus[k]! - plus[k]!) / (2 * delta);
          }
        }
      }
    }
  }
  for (let round = 0; round < rounds; round++) {
    forceConstants = symmetrize(forceConstants, supercell, m);
    if (options.acoustic ?? true) acousticSumRule(forceConstants, atoms);
    else break;
  }
  const masses = batch.read('masses').slice(0, atoms);
  const invSqrtMass = Float64Array.from({ length: m }, (_, x) => 1 / Math.sqrt(masses[Math.floor(x / 3)] as number));
  const vectors = latticeVectors(supercell);
  const frequencies = (q: readonly [number, number, number], unit: PhononUnit = 'THz'): Float64Array => {
    const re = new Float64Array(m * m);
    const im = new Float64Array(m * m);
    vectors.forEach((r, n) => {
      const phase = -2 * Math.PI * (q[0] * (r[0] as number) + q[1] * (r[1] as number) + q[2] * (r[2] as number));
      const c = Math.cos(phase);
      const s = Math.sin(phase);
      const d = forceConstants[n] as Float64Array;
      for (let x = 0; x < m * m; x++) {
        const w = d[x]! * invSqrtMass[Math.floor(x / m)]! * invSqrtMass[x % m]!;
        re[x]! += c * w;
        im[x]! += s * w;
      }
    });
    const omega2 = hermitianEigenvalues(re, im, m);
    return omega2.map((w) => convert(Math.sign(w) * Math.sqrt(Math.abs(w)) * TO_EV, unit));
  };
  return {
    supercell,
    forceConstants,
    frequencies,
    bandStructure: (path, unit) => path.map((q) => frequencies(q, unit)),
    dos: ({ kpts = [10, 10, 10], bins = 200, unit = 'THz' } = {}) => {
      const values: number[] = [];
      const grid = (n: number): number[] => Array.from({ length: n }, (_, k) => (2 * (k + 1) - n - 1) / (2 * n));
      for (const x of grid(kpts[0])) for (const y of grid(kpts[1])) for (const z of grid(kpts[2])) values.push(...frequencies([x, y, z], unit));
      const lo = Math.min(...values);
      const hi = Math.max(...values);
      const width = (hi - lo) / bins || 1;
      const dos = new Float64Array(bins);
      for (const v of values) dos[Math.min(bins - 1, Math.floor((v - lo) / width))]! += m / values.length / width;
      return { frequencies: Float64Array.from({ length: bins }, (_, k) => lo + (k + 0.5) * width), dos };
    },
  };
}
