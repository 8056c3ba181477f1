// SNAP and ML-IAP against the reference LAMMPS (29 Sep 2021, with ML-SNAP and ML-IAP, built from Debian's
// source by bench/reference-lammps/build.sh): every shipped SNAP and ML-IAP file (sna and so3 descriptors) on rattled
// crystals, general triclinic cells, slabs, clusters and mixed species, from the values that
// bench/reference-lammps/snap-fixtures.mjs wrote into test/fixtures/snap/reference.json.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { Batch, MLIAP, SNAP } from '../../lib/index.js';
import type { Model } from '../../lib/index.js';

interface Case {
  potential: string;
  kind: 'snap' | 'mliap';
  structure: string;
  lammpsPair: string[];
  symbols: string[];
  positions: number[][];
  cell: number[][];
  pbc: [boolean, boolean, boolean];
  energy: number;
  forces: number[][];
  stress: number[] | null;
}

const POTENTIALS = '/usr/share/lammps/potentials';
const reference = JSON.parse(readFileSync(new URL('../fixtures/snap/reference.json', import.meta.url), 'utf8')) as { cases: Case[] };

/** The model of a case: the include file when the potential is one, else the model and descriptor its pair_style names. */
function modelOf(c: Case): Model {
  if (c.potential.endsWith('.snap')) return SNAP.fromLammps(`${POTENTIALS}/${c.potential}`);
  if (c.potential.endsWith('.mliap')) return MLIAP.fromLammps(`${POTENTIALS}/${c.potential}`);
  const words = (c.lammpsPair[0] as string).split(/\s+/);
  const at = (key: string): string[] => words.slice(words.indexOf(key) + 1, words.indexOf(key) + 3);
  const [kind, model] = at('model') as ['linear' | 'quadratic' | 'nn', string];
  const [, descriptor] = at('descriptor') as [string, string];
  return new MLIAP({ model: `${POTENTIALS}/${model}`, descriptor: `${POTENTIALS}/${descriptor}`, kind });
}

// Voigt xx yy zz yz xz xy into the B×9 layout.
const VOIGT = [0, 4, 8, 5, 2, 1] as const;

// Debian's lammps-data ships the potential files (.ci/run installs it).
describe.skipIf(!existsSync(`${POTENTIALS}/Ni_Zuo_JPCA2020.snapcoeff`))('SNAP and ML-IAP against LAMMPS', () => {
  const models = new Map<string, Model>();
  for (const c of reference.cases) {
    it(`${c.potential} on ${c.structure} (${c.symbols.length} atoms)`, () => {
      const model = models.get(c.potential) ?? modelOf(c);
      models.set(c.potential, model);
      const batch = Batch.fromSystems([{ symbols: c.symbols, positions: c.positions, cell: c.cell, pbc: c.pbc }]);
      model.compute(batch, { stress: c.stress !== null });
      expect(Math.abs((batch.energy[0] as number) - c.energy) / Math.abs(c.energy)).toBeLessThan(1e-8);
      let worst = 0;
      c.forces.forEach((f, i) => f.forEach((v, k) => (worst = Math.max(worst, Math.abs((batch.forces[3 * i + k] as number) - v)))));
      expect(worst).toBeLessThan(1e-7);
      if (c.stress !== null) {
        const stress = batch.stress as Float64Array;
        c.stress.forEach((v, k) => expect(Math.abs((stress[VOIGT[k] as number] as number) - v)).toBeLessThan(1e-7));
      }
    });
  }
});
