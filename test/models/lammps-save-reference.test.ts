// The files SNAP.save and MLIAP.save wrote (test/fixtures/lammps-save: a fitted linear Mo SNAP, a perturbed
// quadratic Mo SNAP, a perturbed W SNAP with its ZBL core, an ML-IAP linear model with ZBL and an ML-IAP nn
// network) run in the reference LAMMPS as in hookmd: energies, forces and stresses agree to 1e-8 relative.
// The LAMMPS values come from bench/reference-lammps/saved-fixtures.mjs, which wrote the files too.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { Batch, MLIAP, SNAP } from '../../lib/index.js';

interface Case {
  include: string;
  structure: string;
  symbols: string[];
  cell: number[][];
  pbc: [boolean, boolean, boolean];
  positions: number[][];
  energy: number;
  forces: number[][];
  stress: number[];
}

const folder = new URL('../fixtures/lammps-save/', import.meta.url);
const reference = JSON.parse(readFileSync(new URL('reference.json', folder), 'utf8')) as { lammps: string; cases: Case[] };
// Voigt xx yy zz yz xz xy into the B×9 layout.
const VOIGT = [0, 4, 8, 5, 2, 1] as const;

describe(`saved files against ${reference.lammps}`, () => {
  it.each(reference.cases.map((c) => [c.include, c.structure, c] as const))('%s on %s', (include, _, c) => {
    const path = new URL(include, folder).pathname;
    const model = include.endsWith('.snap') ? SNAP.fromLammps(path) : MLIAP.fromLammps(path);
    const batch = Batch.fromSystems([{ symbols: c.symbols, positions: c.positions, cell: c.cell, pbc: c.pbc }]);
    model.compute(batch, { stress: true });
    expect(Math.abs((batch.energy[0] as number) - c.energy) / Math.abs(c.energy)).toBeLessThan(1e-8);
    const forces = c.forces.flat();
    const largest = Math.max(...forces.map(Math.abs));
    expect(Math.max(...forces.map((f, k) => Math.abs((batch.forces[k] as number) - f))) / largest).toBeLessThan(1e-8);
    const largestStress = Math.max(...c.stress.map(Math.abs));
    c.stress.forEach((s, k) => expect(Math.abs((batch.stress[VOIGT[k] as number] as number) - s) / largestStress).toBeLessThan(1e-8));
  });
});
