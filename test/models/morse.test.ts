import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { Morse } from '../../lib/models/index.js';
import { finiteDifferenceForces } from './finite-difference.js';
import { bruteEnergy, fcc, maxAbs, maxDifference, morsePair, randomCluster, rattled, xplorSwitch } from './reference.js';

const copper = (positions: number[][], extra: Partial<System> = {}): System => ({ symbols: positions.map(() => 'Cu'), positions, ...extra });
// Girifalco & Weizer (1959) copper: D = 0.3429 eV, α = 1.3588 Å⁻¹, r₀ = 2.866 Å.
const CU = { D: 0.3429, alpha: 1.3588, r0: 2.866 };

describe('Morse', () => {
  it('has its minimum −D at r₀ for a dimer', () => {
    const batch = Batch.fromSystems([copper([[0, 0, 0], [0, 0, CU.r0]])]);
    new Morse({ ...CU, cutoff: 8 }).compute(batch);
    expect(batch.energy[0]).toBeCloseTo(-CU.D, 12);
    expect(maxAbs(batch.forces)).toBeLessThan(1e-12);
  });

  it.each([
    { n: 20, shift: false },
    { n: 200, shift: true },
  ])('matches the direct pair sum on a random cluster of $n atoms (shift $shift)', ({ n, shift }) => {
    const system = copper(randomCluster(n, 2.4 * Math.cbrt(n), 2.2, n));
    const batch = Batch.fromSystems([system]);
    new Morse({ ...CU, cutoff: 6, shift }).compute(batch);
    const expected = bruteEnergy(system, 6, morsePair(CU.D, CU.alpha, CU.r0, 6, shift));
    expect(Math.abs(batch.energy[0] - expected)).toBeLessThan(1e-11 * Math.abs(expected));
  });

  it('gives a one-atom primitive fcc cell the energy per atom of its 3×3×3 conventional supercell', () => {
    const a = 3.61;
    const h = a / 2;
    const { positions, cell } = fcc(a, 3);
    const batch = Batch.fromSystems([copper([[0, 0, 0]], { cell: [[0, h, h], [h, 0, h], [h, h, 0]], pbc: true }), copper(positions, { cell, pbc: true })]);
    new Morse({ ...CU, cutoff: 5.2 }).compute(batch);
    expect(batch.energy[0]).toBeCloseTo(batch.energy[1] / 108, 11);
    const primitive: System = copper([[0, 0, 0]], { cell: [[0, h, h], [h, 0, h], [h, h, 0]], pbc: true });
    expect(batch.energy[0]).toBeCloseTo(bruteEnergy(primitive, 5.2, morsePair(CU.D, CU.alpha, CU.r0, 5.2)), 11);
  });

  it('switches with the same XPLOR function as LennardJones', () => {
    const distances = [2.5, 3.5, 4.2, 4.9];
    const batch = Batch.fromSystems(distances.map((r) => copper([[0, 0, 0], [r, 0, 0]])));
    new Morse({ ...CU, cutoff: 5, switchOn: 4 }).compute(batch);
    const s = xplorSwitch(4, 5);
    const e = morsePair(CU.D, CU.alpha, CU.r0, 5);
    distances.forEach((r, k) => expect(batch.energy[k]).toBeCloseTo(s(r) * e(r), 12));
  });

  it.each([
    { name: 'a random cluster', system: copper(randomCluster(12, 5, 2.2, 5)), options: { ...CU, cutoff: 6 } },
    {
      name: 'a rattled triclinic cell',
      system: copper(rattled(fcc(3.61, 2).positions, 0.15, 6), { cell: [[7.22, 0, 0], [1.5, 7.0, 0], [-0.8, 0.9, 7.3]], pbc: true }),
      options: { ...CU, cutoff: 5.5, shift: true },
    },
    {
      name: 'a switched narrow cell',
      system: copper(randomCluster(3, 2.5, 2.2, 7), { cell: [[3.0, 0, 0], [1.0, 2.8, 0], [0.4, 0.3, 3.1]], pbc: true }),
      options: { ...CU, cutoff: 5, switchOn: 4 },
    },
  ])('forces equal −∇E by central differences on $name', ({ system, options }) => {
    const batch = Batch.fromSystems([system]);
    const model = new Morse(options);
    model.compute(batch);
    const analytic = Float64Array.from(batch.forces);
    const numeric = finiteDifferenceForces(model, batch, 1e-6);
    expect(maxDifference(analytic, numeric)).toBeLessThan(1e-7 * Math.max(1, maxAbs(analytic)));
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let i = 0; i < batch.numAtoms; i++) sum += analytic[3 * i + c];
      expect(Math.abs(sum)).toBeLessThan(1e-12 * batch.numAtoms * Math.max(1, maxAbs(analytic)));
    }
  });
});
