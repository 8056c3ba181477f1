import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { finiteDifferenceForces } from './finite-difference.js';
import { bruteEnergy, fcc, lennardJonesPair, maxAbs, maxDifference, randomCluster, rattled, xplorSwitch } from './reference.js';

// LAMMPS bench/in.lj: lattice fcc 0.8442, pair_style lj/cut 2.5, unshifted; thermo at step 0 prints
// E_pair = -6.7733681 (per atom, lj units).
const LAMMPS_IN_LJ_EPAIR = -6.7733681;
const A_FCC = (4 / 0.8442) ** (1 / 3);

const argon = (positions: number[][], extra: Partial<System> = {}): System => ({ symbols: positions.map(() => 'Ar'), positions, ...extra });
const ljBatch = (systems: System[]): Batch => Batch.fromSystems(systems, { units: 'lj' });

describe('LennardJones energies', () => {
  it('reproduces LAMMPS bench/in.lj at step 0 (fcc ρ = 0.8442, rc = 2.5σ, no shift)', () => {
    const { positions, cell } = fcc(A_FCC, 6);
    const batch = ljBatch([argon(positions, { cell, pbc: true })]);
    new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }).compute(batch);
    expect(batch.energy[0] / batch.numAtoms).toBeCloseTo(LAMMPS_IN_LJ_EPAIR, 7);
  });

  it('gives a one-atom primitive fcc cell (narrower than the cutoff) the energy per atom of the 4×4×4 supercell', () => {
    const h = A_FCC / 2;
    const primitive = argon([[0, 0, 0]], { cell: [[0, h, h], [h, 0, h], [h, h, 0]], pbc: true });
    const { positions, cell } = fcc(A_FCC, 4);
    const batch = ljBatch([primitive, argon(positions, { cell, pbc: true })]);
    const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    model.compute(batch);
    expect(batch.energy[0]).toBeCloseTo(LAMMPS_IN_LJ_EPAIR, 7);
    expect(batch.energy[0]).toBeCloseTo(batch.energy[1] / 256, 10);
    expect(maxAbs(batch.forces)).toBeLessThan(1e-10);
  });

  it.each([
    { n: 12, rc: 2.5, shift: false },
    { n: 40, rc: 3.0, shift: true },
    { n: 300, rc: 2.5, shift: false },
    { n: 300, rc: 1.8, shift: true },
  ])('matches the direct pair sum on a random cluster of $n atoms (rc $rc, shift $shift)', ({ n, rc, shift }) => {
    const system = argon(randomCluster(n, Math.cbrt(n / 0.5), 0.9, n));
    const batch = ljBatch([system]);
    new LennardJones({ epsilon: 1.3, sigma: 1.1, cutoff: rc, shift }).compute(batch);
    const expected = bruteEnergy(system, rc, lennardJonesPair(1.3, 1.1, rc, shift));
    expect(Math.abs(batch.energy[0] - expected)).toBeLessThan(1e-11 * Math.max(1, Math.abs(expected)));
  });

  it('matches the direct image sum in a triclinic cell narrower than the cutoff, and in a slab', () => {
    const triclinic = argon(randomCluster(5, 1.5, 0.8, 3), { cell: [[1.6, 0, 0], [0.7, 1.5, 0], [-0.4, 0.5, 1.7]], pbc: true });
    const slab = argon(randomCluster(20, 3, 0.9, 4), { cell: [[3.2, 0, 0], [1.1, 3.0, 0], [0, 0, 9]], pbc: [true, true, false] });
    const wire = argon(randomCluster(10, 2, 0.9, 5), { cell: [[2.2, 0, 0], [0, 0, 0], [0, 0, 0]].map((r, k) => (k === 0 ? r : [0, k === 1 ? 9 : 0, k === 2 ? 9 : 0])), pbc: [true, false, false] });
    const batch = ljBatch([triclinic, slab, wire]);
    new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }).compute(batch);
    [triclinic, slab, wire].forEach((system, s) => {
      const expected = bruteEnergy(system, 2.5, lennardJonesPair(1, 1, 2.5));
      expect(Math.abs(batch.energy[s] - expected)).toBeLessThan(1e-10 * Math.max(1, Math.abs(expected)));
    });
  });

  it('uses each species pair its own ε, σ and cutoff', () => {
    const positions = randomCluster(60, 5, 0.95, 9);
    const symbols = positions.map((_, i) => (i % 3 === 0 ? 'Kr' : 'Ar'));
    const system: System = { symbols, positions };
    const params: Record<string, { epsilon: number; sigma: number; cutoff: number }> = {
      '18-18': { epsilon: 1, sigma: 1, cutoff: 2.5 },
      '36-36': { epsilon: 1.4, sigma: 1.1, cutoff: 3.0 },
      '18-36': { epsilon: 1.2, sigma: 1.05, cutoff: 2.0 },
    };
    const batch = ljBatch([system]);
    new LennardJones({ pairs: { 'Ar-Ar': params['18-18'], 'Kr-Kr': params['36-36'], 'Kr-Ar': params['18-36'] } }).compute(batch);
    const expected = bruteEnergy({ ...system, atomicNumbers: symbols.map((s) => (s === 'Ar' ? 18 : 36)) }, 3.0, (r, zi, zj) => {
      const p = params[`${Math.min(zi, zj)}-${Math.max(zi, zj)}`];
      return lennardJonesPair(p.epsilon, p.sigma, p.cutoff)(r);
    });
    expect(Math.abs(batch.energy[0] - expected)).toBeLessThan(1e-11 * Math.abs(expected));
  });

  it('switches smoothly: E = S·E_LJ below rc, and energy and force reach 0 continuously at rc', () => {
    const ron = 2.0;
    const rc = 2.5;
    const distances = [0.95, 1.5, 1.99, 2.1, 2.3, 2.49, 2.4999999];
    const batch = ljBatch(distances.map((r) => argon([[0, 0, 0], [r, 0, 0]])));
    new LennardJones({ epsilon: 1, sigma: 1, cutoff: rc, switchOn: ron }).compute(batch);
    const lj = lennardJonesPair(1, 1, rc);
    const s = xplorSwitch(ron, rc);
    distances.forEach((r, k) => expect(batch.energy[k]).toBeCloseTo(s(r) * lj(r), 12));
    const last = distances.length - 1;
    expect(Math.abs(batch.energy[last])).toBeLessThan(1e-12);
    expect(Math.abs(batch.forces[6 * last])).toBeLessThan(1e-6);
  });
});

describe('LennardJones forces', () => {
  const cases: { name: string; systems: System[]; options: ConstructorParameters<typeof LennardJones>[0] }[] = [
    { name: 'random clusters', systems: [argon(randomCluster(15, 2.6, 0.95, 21)), argon(randomCluster(9, 2, 0.95, 22))], options: { epsilon: 1, sigma: 1, cutoff: 2.5 } },
    {
      name: 'a rattled triclinic periodic cell',
      systems: [argon(rattled(fcc(1.6, 2).positions, 0.1, 5), { cell: [[3.2, 0, 0], [0.9, 3.1, 0], [0.3, -0.6, 3.3]], pbc: true })],
      options: { epsilon: 1, sigma: 1, cutoff: 2.5, shift: true },
    },
    {
      name: 'a switched, narrow triclinic cell',
      systems: [argon(randomCluster(4, 1.4, 0.85, 7), { cell: [[1.5, 0, 0], [0.6, 1.6, 0], [0.2, 0.4, 1.7]], pbc: true })],
      options: { epsilon: 1, sigma: 1, cutoff: 2.5, switchOn: 1.9 },
    },
  ];

  it.each(cases)('equal −∇E by central differences on $name', ({ systems, options }) => {
    const batch = ljBatch(systems);
    const model = new LennardJones(options);
    model.compute(batch);
    const analytic = Float64Array.from(batch.forces);
    const numeric = finiteDifferenceForces(model, batch, 1e-6);
    expect(maxDifference(analytic, numeric)).toBeLessThan(2e-6 * Math.max(1, maxAbs(analytic)));
  });

  it('sum to zero per system and are unchanged by a rigid translation', () => {
    const clusters = [argon(randomCluster(25, 3, 0.95, 31)), argon(rattled(fcc(1.7, 2).positions, 0.15, 2), { cell: [[3.4, 0, 0], [0, 3.4, 0], [0, 0, 3.4]], pbc: true })];
    const batch = ljBatch(clusters);
    const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    model.compute(batch);
    const forces = Float64Array.from(batch.forces);
    const energy = Float64Array.from(batch.energy);
    const ptr = batch.ptr;
    for (let s = 0; s < 2; s++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let i = ptr[s]; i < ptr[s + 1]; i++) sum += forces[3 * i + c];
        expect(Math.abs(sum)).toBeLessThan(1e-10 * maxAbs(forces));
      }
    }
    const shift = [13.7, -4.2, 100.9];
    for (let i = 0; i < batch.numAtoms; i++) for (let c = 0; c < 3; c++) batch.positions[3 * i + c] += shift[c];
    model.compute(batch);
    expect(maxDifference(batch.energy, energy)).toBeLessThan(1e-10 * maxAbs(energy));
    expect(maxDifference(batch.forces, forces)).toBeLessThan(1e-10 * maxAbs(forces));
  });
});
