// Space-group analysis of one periodic system through moyo (@spglib/moyo-wasm, spglib's successor), loaded
// synchronously so that symmetry() and the engines' FixSymmetry need no await.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { analyze_cell, initSync, type MoyoCell, type MoyoDataset } from '@spglib/moyo-wasm';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { chemicalSymbol } from './elements.js';
import type { System } from './system.js';
import { METAL } from './units.js';
import { normalizeSystemAt } from './validate.js';
import { showText } from '../describe-value.js';

/** One space-group operation in fractional coordinates of the analysed cell: s′ = rotation·s + translation. */
export interface SymmetryOperation {
  /** Integer 3×3 matrix, row-major, acting on fractional column vectors. */
  rotation: number[];
  /** Fractional translation. */
  translation: [number, number, number];
}

/** What `symmetry(system)` finds: spglib's dataset, by its names where spglib has one. */
export interface SymmetryDataset {
  /** ITA space-group number (1–230). */
  number: number;
  /** Hermann–Mauguin short symbol as spglib writes it (`'Im-3m'`, `'P6_3/mmc'`). */
  international: string;
  /** Hall number (1–530) of the setting found. */
  hallNumber: number;
  /** The Wyckoff letter of each atom. */
  wyckoffs: string[];
  /** For each atom, the lowest index of the atoms its orbit holds (spglib's `equivalent_atoms`). */
  equivalentAtoms: number[];
  /** Every operation of the group on the input cell (centring translations included). */
  operations: SymmetryOperation[];
  /** The conventional standardised cell (spglib's `std_lattice`, `std_positions`, `std_types`), periodic. */
  standardized: System;
  /** The primitive standardised cell, periodic. */
  primitive: System;
  /** Pearson symbol (`'cI2'`). */
  pearsonSymbol: string;
}

let loaded = false;

function loadMoyo(): void {
  if (loaded) return;
  const require = createRequire(import.meta.url);
  initSync({ module: readFileSync(require.resolve('@spglib/moyo-wasm/moyo_wasm_bg.wasm')) });
  loaded = true;
}

/** The row-major inverse of a row-major 3×3 matrix whose determinant is `det` (≠ 0). */
function inverse3(m: Float64Array, det: number): number[] {
  const r = 1 / det;
  return [
    (m[4] * m[8] - m[5] * m[7]) * r, (m[2] * m[7] - m[1] * m[8]) * r, (m[1] * m[5] - m[2] * m[4]) * r,
    (m[5] * m[6] - m[3] * m[8]) * r, (m[0] * m[8] - m[2] * m[6]) * r, (m[2] * m[3] - m[0] * m[5]) * r,
    (m[3] * m[7] - m[4] * m[6]) * r, (m[1] * m[6] - m[0] * m[7]) * r, (m[0] * m[4] - m[1] * m[3]) * r,
  ];
}

function periodicSystem(cell: MoyoCell): System {
  const b = cell.lattice.basis;
  return {
    symbols: cell.numbers.map((z) => chemicalSymbol(z)),
    positions: cell.positions.map((s) => [0, 1, 2].map((k) => s[0] * b[k] + s[1] * b[3 + k] + s[2] * b[6 + k])),
    cell: [[b[0], b[1], b[2]], [b[3], b[4], b[5]], [b[6], b[7], b[8]]],
    pbc: true,
  };
}

/**
 * The space group of a periodic system, found by moyo (spglib's algorithm, in Rust) within `symprec`, the
 * distance tolerance in Å (metal units; default 1e-5 as spglib's, use ASE FixSymmetry's 0.01 for a rattled
 * structure). Needs a cell periodic in all three directions.
 *
 * @example
 * const data = symmetry(bulk('Cu', 'fcc', { a: 3.6, cubic: true }), { symprec: 1e-5 });
 * console.log(data.number, data.international, data.wyckoffs.join('')); // 225 Fm-3m aaaa
 */
export function symmetry(system: System, options: { symprec?: number } = {}): SymmetryDataset {
  checkKeys('symmetry', options, ['symprec']);
  const symprec = options.symprec ?? 1e-5;
  if (typeof symprec !== 'number' || !Number.isFinite(symprec) || symprec <= 0) {
    throw new HookmdRangeError('INVALID_PARAMETER', `symmetry: symprec must be a finite number > 0, got ${showText(symprec)}`, { field: 'symprec', value: symprec });
  }
  return analyzeSymmetry(system, symprec, 'symmetry: systems[0]');
}

/** @internal symmetry() with a checked `symprec`, its messages led by `where` (FixSymmetry names the batch's system). */
export function analyzeSymmetry(system: System, symprec: number, where: string): SymmetryDataset {
  const normalized = normalizeSystemAt(system, where, METAL);
  const { cell, pbc, positions, atomicNumbers } = normalized;
  const det = cell[0] * (cell[4] * cell[8] - cell[5] * cell[7]) - cell[1] * (cell[3] * cell[8] - cell[5] * cell[6]) + cell[2] * (cell[3] * cell[7] - cell[4] * cell[6]);
  if (pbc[0] !== 1 || pbc[1] !== 1 || pbc[2] !== 1 || det === 0) {
    throw new HookmdTypeError('NOT_PERIODIC', 'symmetry: systems[0] must have a cell periodic in all three directions (a space group needs a 3D lattice)', { field: 'pbc', value: Array.from(pbc) });
  }
  const inv = inverse3(cell, det);
  const fractional: [number, number, number][] = [];
  for (let i = 0; i < normalized.numAtoms; i++) {
    const x = positions.subarray(3 * i, 3 * i + 3);
    fractional.push([0, 1, 2].map((k) => x[0] * inv[k] + x[1] * inv[3 + k] + x[2] * inv[6 + k]) as [number, number, number]);
  }
  loadMoyo();
  let data: MoyoDataset;
  try {
    const input: MoyoCell = { lattice: { basis: Array.from(cell) as MoyoCell['lattice']['basis'] }, positions: fractional, numbers: Array.from(atomicNumbers) };
    data = analyze_cell(JSON.stringify(input), symprec, 'Spglib');
  } catch (error) {
    throw new HookmdError('SYMMETRY_FAILED', `${where}: moyo found no space group within symprec ${symprec} (${showText(error)})`, { field: 'symprec', value: symprec }, { cause: error });
  }
  const lowest = new Map<number, number>();
  data.orbits.forEach((orbit, i) => { if (!lowest.has(orbit)) lowest.set(orbit, i); });
  return {
    number: data.number,
    international: data.hm_symbol.replaceAll(' ', ''),
    hallNumber: data.hall_number,
    wyckoffs: [...data.wyckoffs],
    equivalentAtoms: data.orbits.map((orbit) => lowest.get(orbit) as number),
    // moyo's matrices come column-major (nalgebra's storage): transposed, they are spglib's row-major W.
    operations: data.operations.map((op) => ({ rotation: [0, 3, 6, 1, 4, 7, 2, 5, 8].map((k) => op.rotation[k]), translation: [...op.translation] })),
    standardized: periodicSystem(data.std_cell),
    primitive: periodicSystem(data.prim_std_cell),
    pearsonSymbol: data.pearson_symbol,
  };
}
