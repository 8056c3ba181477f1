import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { LennardJones, Morse } from '../../lib/models/index.js';
import type { Model } from '../../lib/models/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { finiteDifferenceStress } from './finite-difference.js';
import { fcc, maxAbs, maxDifference, randomCluster, rattled } from './reference.js';

const argon = (positions: number[][], extra: Partial<System> = {}): System => ({ symbols: positions.map(() => 'Ar'), positions, ...extra });
const triclinicArgon = (): System =>
  argon(rattled(fcc(1.6, 2).positions, 0.12, 17), { cell: [[3.1, 0, 0], [0.8, 3.2, 0], [-0.5, 0.4, 3.3]], pbc: true });

describe('stress', () => {
  const models: { name: string; make: () => Model }[] = [
    { name: 'LennardJones', make: () => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }) },
    { name: 'LennardJones (switched)', make: () => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, switchOn: 2.0 }) },
    { name: 'Morse', make: () => new Morse({ D: 0.8, alpha: 2.2, r0: 1.1, cutoff: 2.7 }) },
  ];

  it.each(models)('$name: equals (1/V) ∂E/∂ε for symmetric strains of a triclinic cell', ({ make }) => {
    const batch = Batch.fromSystems([triclinicArgon()], { units: 'lj' });
    const model = make();
    model.compute(batch, { stress: true });
    const stress = Array.from(batch.stress);
    const numeric = finiteDifferenceStress(model, batch, 0, 1e-6);
    expect(maxDifference(stress, numeric)).toBeLessThan(1e-6 * Math.max(1, maxAbs(stress)));
    expect(maxDifference(stress, [stress[0], stress[3], stress[6], stress[1], stress[4], stress[7], stress[2], stress[5], stress[8]])).toBeLessThan(1e-12 * maxAbs(stress));
  });

  it('is zero for a cluster without a cell, while the virial still holds W = Σ d⊗F', () => {
    const batch = Batch.fromSystems([argon(randomCluster(10, 2.2, 0.95, 3))], { units: 'lj' });
    const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 });
    model.compute(batch, { stress: true });
    expect(Array.from(batch.stress)).toEqual(new Array(9).fill(0));
    // For a free cluster Σ r_i ⊗ F_i is the virial too (no images), computed here from the forces.
    const expected = new Array(9).fill(0);
    for (let i = 0; i < batch.numAtoms; i++) {
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) expected[3 * a + b] += batch.positions[3 * i + a] * batch.forces[3 * i + b];
    }
    expect(maxDifference(model.virial(), expected)).toBeLessThan(1e-10 * maxAbs(expected));
  });
});

interface AseResult {
  energy: number;
  forces: number[][];
  stress: number[];
}

const ASE_LJ = `
import json, sys
import numpy as np
from ase import Atoms
from ase.calculators.lj import LennardJones
from ase.stress import voigt_6_to_full_3x3_stress
c = json.load(sys.stdin)
atoms = Atoms('Ar%d' % len(c['positions']), positions=c['positions'], cell=c['cell'], pbc=c['pbc'])
kw = dict(sigma=c['sigma'], epsilon=c['epsilon'], rc=c['rc'])
if c.get('ro') is not None:
    kw.update(smooth=True, ro=c['ro'])
atoms.calc = LennardJones(**kw)
stress = voigt_6_to_full_3x3_stress(atoms.get_stress()).reshape(9)
print(json.dumps({'energy': atoms.get_potential_energy(), 'forces': atoms.get_forces().tolist(), 'stress': stress.tolist()}))
`;

describe.skipIf(aseSkipReason !== '')(`ASE's LennardJones calculator ${aseSkipReason}`, () => {
  const structures: { name: string; system: System }[] = [
    { name: 'a rattled triclinic cell', system: triclinicArgon() },
    { name: 'a narrow periodic cell (many images)', system: argon(randomCluster(3, 1.3, 0.9, 8), { cell: [[1.4, 0, 0], [0.5, 1.5, 0], [0.3, 0.2, 1.6]], pbc: true }) },
    { name: 'a slab', system: argon(rattled(fcc(1.6, 2).positions, 0.1, 4), { cell: [[3.2, 0, 0], [0, 3.2, 0], [0, 0, 8]], pbc: [true, true, false] }) },
  ];

  it.each(structures)('gives the same energy, forces and stress on $name (shifted, and smooth with ro)', ({ system }) => {
    for (const smooth of [false, true]) {
      const batch = Batch.fromSystems([system], { units: 'lj' });
      const options = smooth ? { epsilon: 1.2, sigma: 1.05, cutoff: 2.6, switchOn: 1.9 } : { epsilon: 1.2, sigma: 1.05, cutoff: 2.6, shift: true };
      new LennardJones(options).compute(batch, { stress: true });
      const ase = runAse<AseResult>(ASE_LJ, { positions: system.positions, cell: system.cell, pbc: system.pbc, sigma: 1.05, epsilon: 1.2, rc: 2.6, ro: smooth ? 1.9 : null });
      expect(Math.abs(batch.energy[0] - ase.energy)).toBeLessThan(1e-10 * Math.max(1, Math.abs(ase.energy)));
      expect(maxDifference(batch.forces, ase.forces.flat())).toBeLessThan(1e-10 * Math.max(1, maxAbs(ase.forces.flat())));
      expect(maxDifference(batch.stress, ase.stress)).toBeLessThan(1e-10 * Math.max(1, maxAbs(ase.stress)));
    }
  });
});
