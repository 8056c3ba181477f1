// The reference side of the potential tests against LAMMPS: a structure written as a LAMMPS data file by the
// test itself (so hookmd's own writers are not part of the reference), one `run 0` of Debian's `lmp` with a
// given pair style, and its energy, per-atom forces and stress in hookmd's conventions.
import { chemicalSymbol, createRng } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { runLammps, thermoRow } from './lammps.js';

/** LAMMPS's metal-units conversion of eV/Å³ to bar (force->nktv2p in update.cpp). */
export const NKTV2P = 1.6021765e6;

/** A cell in LAMMPS's restricted triclinic form, rows a = (lx,0,0), b = (xy,ly,0), c = (xz,yz,lz), filled with jittered grid points. */
export function triclinicAlloy(elements: readonly string[], seed: number, cell: number[][] = [[12.1, 0, 0], [2.3, 11.4, 0], [-1.7, 1.9, 12.6]], n = 4): System {
  const random = createRng(seed);
  const rng = (): number => random.uniform();
  const positions: number[][] = [];
  const symbols: string[] = [];
  // Jittered grid points at about the material's density, so no two atoms come unphysically close.
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      for (let k = 0; k < n; k++) {
        const f = [(i + 0.5 + 0.3 * (rng() - 0.5)) / n, (j + 0.5 + 0.3 * (rng() - 0.5)) / n, (k + 0.5 + 0.3 * (rng() - 0.5)) / n];
        positions.push([0, 1, 2].map((c) => f[0] * cell[0][c] + f[1] * cell[1][c] + f[2] * cell[2][c]));
        symbols.push(elements[Math.floor(rng() * elements.length)] as string);
      }
    }
  }
  return { symbols, positions, cell, pbc: true };
}

/** `system` (periodic, in LAMMPS's restricted triclinic form) as a LAMMPS data file with `elements` as types 1, 2, … */
export function lammpsData(system: System, elements: readonly string[]): string {
  const cell = system.cell as number[][];
  const positions = system.positions as number[][];
  const symbols = (system.symbols as string[] | undefined) ?? (system.atomicNumbers as number[]).map((z) => chemicalSymbol(z));
  const lines = ['hookmd test structure', '', `${positions.length} atoms`, `${elements.length} atom types`, ''];
  lines.push(`0 ${cell[0][0].toPrecision(17)} xlo xhi`, `0 ${cell[1][1].toPrecision(17)} ylo yhi`, `0 ${cell[2][2].toPrecision(17)} zlo zhi`);
  lines.push(`${cell[1][0].toPrecision(17)} ${cell[2][0].toPrecision(17)} ${cell[2][1].toPrecision(17)} xy xz yz`, '', 'Atoms # atomic', '');
  positions.forEach((p, i) => lines.push(`${i + 1} ${elements.indexOf(symbols[i] as string) + 1} ${p.map((x) => x.toPrecision(17)).join(' ')}`));
  return lines.join('\n') + '\n';
}

/** What LAMMPS computed: the energy (eV), forces (N×3, atom order) and stress σ (B×9 layout, eV/Å³, ASE's sign). */
export interface LammpsResult {
  energy: number;
  forces: Float64Array;
  stress: Float64Array;
}

/** One `run 0` of `system` with `pair_style ${style}` and `pair_coeff ${coeff}`; masses do not matter at rest. */
export function lammpsRun0(system: System, elements: readonly string[], style: string, coeff: string): LammpsResult {
  const input = [
    'units metal',
    'atom_style atomic',
    'boundary p p p',
    'box tilt large',
    'read_data data.lmp',
    ...elements.map((_, t) => `mass ${t + 1} 1.0`),
    `pair_style ${style}`,
    `pair_coeff ${coeff}`,
    'neighbor 2.0 bin',
    'thermo_style custom step pe pxx pyy pzz pxy pxz pyz',
    'thermo_modify format line "%d %.17g %.17g %.17g %.17g %.17g %.17g %.17g"',
    'run 0',
    'write_dump all custom forces.txt id fx fy fz modify sort id format float %.17g',
  ].join('\n');
  const { stdout, outputs } = runLammps(input, { 'data.lmp': lammpsData(system, elements) }, ['forces.txt']);
  const [, energy, ...pressure] = thermoRow(stdout, 'Step PotEng Pxx');
  const rows = (outputs['forces.txt'] as string)
    .split('\n')
    .slice(9)
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const forces = new Float64Array(3 * rows.length);
  for (const row of rows) forces.set(row.slice(1, 4), 3 * ((row[0] as number) - 1));
  // LAMMPS's pressure tensor (bar; no kinetic part at zero velocity) is −σ in bar: xx yy zz xy xz yz.
  const stress = new Float64Array(9);
  const at = [[0], [4], [8], [1, 3], [2, 6], [5, 7]];
  at.forEach((slots, k) => slots.forEach((slot) => (stress[slot] = -(pressure[k] as number) / NKTV2P)));
  return { energy: energy as number, forces, stress };
}

/** The cubic zincblende cell (8 atoms; diamond when a and b are one element), as ase.build.bulk(..., 'zincblende', cubic=True). */
export function zincblende(a: string, b: string, lattice: number): System {
  const fcc = [[0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]];
  const positions = [...fcc, ...fcc.map((p) => p.map((x) => x + 0.25))].map((p) => p.map((x) => x * lattice));
  return { symbols: [...fcc.map(() => a), ...fcc.map(() => b)], positions, cell: [[lattice, 0, 0], [0, lattice, 0], [0, 0, lattice]], pbc: true };
}

/**
 * `system` deformed by x' = F x with F upper triangular (so a cubic cell stays in LAMMPS's restricted
 * triclinic form) and its atoms wrapped into the cell, as a LAMMPS data file needs them.
 */
export function sheared(system: System, f: number[][]): System {
  const apply = (x: number[]): number[] => [0, 1, 2].map((r) => (f[r] as number[]).reduce((sum, v, c) => sum + v * (x[c] as number), 0));
  const cell = (system.cell as number[][]).map(apply);
  const inverse = invert3(cell);
  const positions = (system.positions as number[][]).map((x) => {
    const moved = apply(x);
    const frac = [0, 1, 2].map((c) => moved.reduce((sum, v, r) => sum + v * (inverse[r] as number[])[c], 0)).map((u) => u - Math.floor(u));
    return [0, 1, 2].map((c) => frac.reduce((sum, u, r) => sum + u * (cell[r] as number[])[c], 0));
  });
  return { ...system, positions, cell };
}

function invert3(m: number[][]): number[][] {
  const [a, b, c] = m as [number[], number[], number[]];
  const det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  const cof = (r0: number[], r1: number[], i: number, j: number): number => r0[i] * r1[j] - r0[j] * r1[i];
  return [
    [cof(b, c, 1, 2), -cof(a, c, 1, 2), cof(a, b, 1, 2)],
    [-cof(b, c, 0, 2), cof(a, c, 0, 2), -cof(a, b, 0, 2)],
    [cof(b, c, 0, 1), -cof(a, c, 0, 1), cof(a, b, 0, 1)],
  ].map((row) => row.map((v) => v / det));
}
