// refineSymmetry: a structure moved onto the exact positions and cell of the space group found within
// symprec, as ASE's refine_symmetry does before its FixSymmetry constrains a relaxation.
import { HookmdError, HookmdRangeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { analyzeSymmetry } from './symmetry.js';
import type { System } from './system.js';
import { METAL } from './units.js';
import { normalizeSystemAt } from './validate.js';
import { showText } from '../describe-value.js';

type Matrix = readonly number[];
type Vector = [number, number, number];

const multiply = (a: Matrix, b: Matrix): number[] =>
  Array.from({ length: 9 }, (_, k) => a[3 * Math.floor(k / 3)] * b[k % 3] + a[3 * Math.floor(k / 3) + 1] * b[3 + (k % 3)] + a[3 * Math.floor(k / 3) + 2] * b[6 + (k % 3)]);
const transpose = (a: Matrix): number[] => [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]];
const rotate = (w: Matrix, s: ArrayLike<number>): Vector => [0, 1, 2].map((a) => w[3 * a] * s[0] + w[3 * a + 1] * s[1] + w[3 * a + 2] * s[2]) as Vector;
const wrap = (d: number): number => d - Math.round(d);

function inverse(m: Matrix): number[] {
  const det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  const r = 1 / det;
  return [
    (m[4] * m[8] - m[5] * m[7]) * r, (m[2] * m[7] - m[1] * m[8]) * r, (m[1] * m[5] - m[2] * m[4]) * r,
    (m[5] * m[6] - m[3] * m[8]) * r, (m[0] * m[8] - m[2] * m[6]) * r, (m[2] * m[3] - m[0] * m[5]) * r,
    (m[3] * m[7] - m[4] * m[6]) * r, (m[1] * m[6] - m[0] * m[7]) * r, (m[0] * m[4] - m[1] * m[3]) * r,
  ];
}

/** The symmetric positive square root of a symmetric positive matrix near I (Denman–Beavers iteration). */
function sqrtSpd(a: Matrix): number[] {
  let y = [...a];
  let z = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let k = 0; k < 100; k++) {
    const [yi, zi] = [inverse(y), inverse(z)];
    const next = y.map((v, i) => (v + zi[i]) / 2);
    z = z.map((v, i) => (v + yi[i]) / 2);
    const change = Math.max(...next.map((v, i) => Math.abs(v - y[i])));
    y = next;
    if (change < 1e-16) break;
  }
  return y;
}

/**
 * `system` moved onto the exact positions and cell of its space group within `symprec` (Å; default 0.01,
 * ASE's), as ASE's `refine_symmetry`: the lattice metric averaged over the group's rotations and reached
 * from the given cell by a pure stretch (no rotation), and each fractional position averaged over the
 * images the operations give it (moyo's translations close the group exactly, so the average is exact). ASE rebuilds the cell from spglib's
 * standardised one instead: the same crystal, its orientation and lattice parameters differing by the
 * deviation removed. Results (energy, forces, stress) are dropped, for the atoms moved.
 *
 * @example
 * const exact = refineSymmetry(rattle(bulk('Cu', 'fcc', { a: 3.6, cubic: true }), 0.002, 1));
 * console.log(symmetry(exact, { symprec: 1e-9 }).international); // Fm-3m
 */
export function refineSymmetry(system: System, options: { symprec?: number } = {}): System {
  checkKeys('refineSymmetry', options, ['symprec']);
  const symprec = options.symprec ?? 0.01;
  if (typeof symprec !== 'number' || !Number.isFinite(symprec) || symprec <= 0) {
    throw new HookmdRangeError('INVALID_PARAMETER', `refineSymmetry: symprec must be a finite number > 0, got ${showText(symprec)}`, { field: 'symprec', value: symprec });
  }
  return refineWith(system, symprec, 'refineSymmetry: systems[0]');
}

/** @internal refineSymmetry with a checked symprec, its messages led by `where` (FixSymmetry names the batch's system). */
export function refineWith(system: System, symprec: number, where: string): System {
  const { operations } = analyzeSymmetry(system, symprec, where);
  const normalized = normalizeSystemAt(system, where, METAL);
  const cell = Array.from(normalized.cell);
  const count = normalized.numAtoms;
  // The metric G = C·Cᵀ averaged as Wᵀ·G·W; then C′ = C·Q with Q·Qᵀ = C⁻¹·G′·C⁻ᵀ, Q symmetric: a stretch.
  const metric = multiply(cell, transpose(cell));
  const averaged = new Array<number>(9).fill(0);
  for (const op of operations) multiply(transpose(op.rotation), multiply(metric, op.rotation)).forEach((v, k) => { averaged[k] += v / operations.length; });
  const inv = inverse(cell);
  const refinedCell = multiply(cell, sqrtSpd(multiply(inv, multiply(averaged, transpose(inv)))));
  const s = Array.from({ length: count }, (_, i) => rotate(transpose(inv), normalized.positions.subarray(3 * i, 3 * i + 3)));
  // Each position the mean of W·s + t over the atoms each operation takes to it (the Reynolds average).
  const refined = s.map(() => [0, 0, 0]);
  operations.forEach((op) => {
    const taken = new Set<number>();
    s.forEach((si, i) => {
      const image = rotate(op.rotation, si).map((v, a) => v + op.translation[a]);
      let k = 0;
      let distance = Infinity;
      s.forEach((sj, j) => {
        const d = Math.hypot(wrap(sj[0] - image[0]), wrap(sj[1] - image[1]), wrap(sj[2] - image[2]));
        if (d < distance) [k, distance] = [j, d];
      });
      taken.add(k);
      for (let a = 0; a < 3; a++) refined[k][a] += (s[k][a] + wrap(image[a] - s[k][a])) / operations.length;
    });
    if (taken.size !== count) throw new HookmdError('SYMMETRY_FAILED', `${where}: an operation of the group found within symprec ${symprec} does not permute the atoms`, { field: 'symprec', value: symprec });
  });
  const rows = [0, 1, 2].map((r) => refinedCell.slice(3 * r, 3 * r + 3));
  const out: System = { ...system, cell: rows, positions: refined.map((si) => [0, 1, 2].map((k) => si[0] * rows[0][k] + si[1] * rows[1][k] + si[2] * rows[2][k])) };
  delete out.energy;
  delete out.forces;
  delete out.stress;
  return out;
}
