// The many-body batches the device-kernel tests share (mirror parity, cuda parity, budgets): for each of
// Tersoff, tersoff/mod, tersoff/zbl and Stillinger–Weber, a batch of systems of different sizes, chemistries
// and boundaries (a triclinic crystal, a slab, a cluster, a larger crystal), built with the library instance
// under test.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { System } from '../../lib/data/index.js';
import type { Model } from '../../lib/models/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { zincblende } from '../helpers/lammps-compare.js';
import type { Hookmd } from '../helpers/library.js';

export const potential = (name: string): string => join(LAMMPS_POTENTIALS, name);
export const potentialsInstalled: boolean = existsSync(potential('Si.tersoff'));

export interface ManyBodyCase {
  name: string;
  model: (hookmd: Hookmd) => Model;
  systems: (hookmd: Hookmd) => System[];
}

/** A rattled diamond Si crystal of n³ cubic cells. */
export function diamond(hookmd: Hookmd, seed: number, n = 2): System {
  return hookmd.rattle(hookmd.repeat(hookmd.bulk('Si', 'diamond', { a: 5.432, cubic: true }), [n, n, n]), 0.1, seed);
}

function compound(hookmd: Hookmd, a: string, b: string, lattice: number, n: number, amplitude: number, seed: number): System {
  return hookmd.rattle(hookmd.repeat(zincblende(a, b, lattice), [n, n, n]), amplitude, seed);
}

/** The crystal sheared into a triclinic cell. */
export function triclinic(system: System): System {
  const shear = (x: number[]): number[] => [x[0] + 0.05 * x[1] - 0.03 * x[2], x[1] + 0.04 * x[2], x[2]];
  return { ...system, cell: (system.cell as number[][]).map(shear), positions: (system.positions as number[][]).map(shear) };
}
const slab = (system: System): System => ({ ...system, pbc: [true, true, false] });
const cluster = (system: System): System => ({ ...system, cell: undefined, pbc: false });

// The published Si parameters of the files LAMMPS ships (Si.tersoff, Si.tersoff.mod, SiC.tersoff.zbl's Si
// entry, Si.sw), one entry per element triplet in LAMMPS's column order after the three names, so the
// tests that must also run on a GPU machine without lammps-data can write their own files.
export const TERSOFF_SI: number[] = [3.0, 1.0, 1.3258, 4.8381, 2.0417, 0.0, 22.956, 0.33675, 1.3258, 95.373, 3.0, 0.2, 3.2394, 3264.7];
export const TERSOFF_MOD_SI: number[] = [1.0, 2.3890327, -0.365, 1.0, 1.0, 1.345797, 121.00047, 3.0, 0.3, 3.2300135, 3281.5905, 0.93810551, 0.20173476, 730418.72, 1000000.0, 1.0, 26.0];
export const TERSOFF_ZBL_SI: number[] = [1.0, 1.0, 0.0, 1.0039e5, 16.217, -0.59825, 0.78734, 1.1e-6, 1.7322, 471.18, 2.85, 0.15, 2.4799, 1830.8, 14, 14, 0.95, 14];
export const SW_SI: number[] = [2.1683, 2.0951, 1.8, 21.0, 1.2, -1 / 3, 7.049556277, 0.6022245584, 4.0, 0.0, 0.0];

/**
 * A potential file in `dir` of every triplet of `elements`, each `entry`, the columns `lengths` scaled by
 * `stretch` in the entries that name the second element: a second species for the test, not a physical one.
 */
export function writePotential(dir: string, name: string, elements: string[], entry: number[], lengths: number[], stretch: number): string {
  const lines: string[] = [];
  for (const a of elements) {
    for (const b of elements) {
      for (const c of elements) {
        const scale = elements.length > 1 && [a, b, c].includes(elements[1] as string) ? stretch : 1;
        lines.push([a, b, c, ...entry.map((v, k) => (lengths.includes(k) ? v * scale : v))].join(' '));
      }
    }
  }
  const file = join(dir, name);
  writeFileSync(file, `# written by test/backends/many-body-cases.ts\n${lines.join('\n')}\n`);
  return file;
}

export const MANY_BODY_CASES: ManyBodyCase[] = [
  {
    name: 'tersoff Si.tersoff',
    model: (h) => new h.Tersoff({ file: potential('Si.tersoff') }),
    systems: (h) => [triclinic(diamond(h, 1)), slab(diamond(h, 2)), cluster(diamond(h, 3, 1)), diamond(h, 4, 3)],
  },
  {
    name: 'tersoff SiC.tersoff',
    model: (h) => new h.Tersoff({ file: potential('SiC.tersoff') }),
    systems: (h) => [triclinic(compound(h, 'Si', 'C', 4.36, 2, 0.1, 5)), slab(diamond(h, 6)), cluster(compound(h, 'Si', 'C', 4.36, 1, 0.1, 7))],
  },
  {
    name: 'tersoff/mod Si.tersoff.mod',
    model: (h) => new h.Tersoff({ file: potential('Si.tersoff.mod') }),
    systems: (h) => [triclinic(diamond(h, 8)), cluster(diamond(h, 9, 1)), diamond(h, 10, 1)],
  },
  {
    name: 'tersoff/zbl SiC.tersoff.zbl, compressed',
    model: (h) => new h.Tersoff({ file: potential('SiC.tersoff.zbl') }),
    systems: (h) => [triclinic(compound(h, 'Si', 'C', 3.6, 2, 0.15, 11)), slab(compound(h, 'Si', 'C', 4.36, 2, 0.1, 12))],
  },
  {
    name: 'sw Si.sw',
    model: (h) => new h.StillingerWeber({ file: potential('Si.sw') }),
    systems: (h) => [triclinic(diamond(h, 13)), slab(diamond(h, 14)), cluster(diamond(h, 15, 1)), diamond(h, 16, 3)],
  },
  {
    name: 'sw GaN.sw',
    model: (h) => new h.StillingerWeber({ file: potential('GaN.sw') }),
    systems: (h) => [triclinic(compound(h, 'Ga', 'N', 4.5, 2, 0.1, 17)), cluster(compound(h, 'Ga', 'N', 4.5, 1, 0.1, 18))],
  },
];
