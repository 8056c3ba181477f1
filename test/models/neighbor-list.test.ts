import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { backendInfo, getThreads, setThreads } from '../../lib/native/index.js';
import { fcc, forEachPair, maxAbs, maxDifference, randomCluster, rattled, rng } from './reference.js';

const argon = (positions: number[][], extra: Partial<System> = {}): System => ({ symbols: positions.map(() => 'Ar'), positions, ...extra });
const ljBatch = (systems: System[]): Batch => Batch.fromSystems(systems, { units: 'lj' });
const lj = (skin = 0.3): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin });

const geometries: { name: string; system: System }[] = [
  { name: 'a small cluster', system: argon(randomCluster(20, 3, 0.9, 1)) },
  { name: 'a large cluster', system: argon(randomCluster(400, 8, 0.9, 2)) },
  { name: 'a narrow triclinic cell', system: argon(randomCluster(6, 1.6, 0.8, 3), { cell: [[1.7, 0, 0], [0.9, 1.6, 0], [-0.6, 0.5, 1.8]], pbc: true }) },
  { name: 'a binned triclinic cell', system: argon(rattled(fcc(1.68, 3).positions, 0.1, 4), { cell: [[5.04, 0, 0], [1.6, 5.04, 0], [-1.1, 1.3, 5.04]], pbc: true }) },
  { name: 'a slab', system: argon(rattled(fcc(1.68, 3).positions, 0.1, 5), { cell: [[5.04, 0, 0], [0, 5.04, 0], [0, 0, 0.5]], pbc: [true, true, false] }) },
  { name: 'a wire with atoms far outside its cell', system: argon(randomCluster(80, 5, 0.9, 6).map((p) => [p[0] + 37.3, p[1] - 12, p[2]]), { cell: [[2.5, 0, 0], [0, 1, 0], [0, 0, 1]], pbc: [true, false, false] }) },
];

describe('neighbor lists', () => {
  it.each(geometries)('hold exactly the pairs closer than cutoff + skin in $name, periodic images included', ({ system }) => {
    const model = lj(0.3);
    model.compute(ljBatch([system]));
    let expected = 0;
    forEachPair(system, 2.8, () => expected++);
    expect(model.neighborStats().pairs).toBe(expected);
  });

  it('give a mixed batch (clusters, periodic, triclinic, slab) the results of each system computed alone', () => {
    const systems = geometries.map((g) => g.system);
    const model = lj();
    const batch = ljBatch(systems);
    model.compute(batch, { stress: true });
    const ptr = batch.ptr;
    systems.forEach((system, s) => {
      const alone = ljBatch([system]);
      lj().compute(alone, { stress: true });
      expect(alone.energy[0]).toBe(batch.energy[s]);
      expect(Array.from(alone.forces)).toEqual(Array.from(batch.forces.subarray(3 * ptr[s], 3 * ptr[s + 1])));
      expect(Array.from(alone.stress)).toEqual(Array.from(batch.stress.subarray(9 * s, 9 * s + 9)));
    });
  });

  it('wrap atoms that sit many cells away into the cell without changing any result', () => {
    const inside = geometries[3].system;
    const cell = inside.cell as number[][];
    const random = rng(12);
    const far = (inside.positions as number[][]).map((p) => {
      const n = [0, 1, 2].map(() => Math.floor(random() * 9) - 4);
      return p.map((v, c) => v + n[0] * cell[0][c] + n[1] * cell[1][c] + n[2] * cell[2][c]);
    });
    const batch = ljBatch([inside, { ...inside, positions: far }]);
    lj().compute(batch);
    const n = batch.ptr[1];
    expect(Math.abs(batch.energy[1] - batch.energy[0])).toBeLessThan(1e-11 * Math.abs(batch.energy[0]));
    expect(maxDifference(batch.forces.subarray(0, 3 * n), batch.forces.subarray(3 * n))).toBeLessThan(1e-10 * maxAbs(batch.forces));
  });
});

describe('Verlet skin', () => {
  // The cuda backend rebuilds every system of the batch when any list goes stale: on a GPU that one pass
  // costs about what one system's would (docs/cuda.md). Its builds count every list it rebuilt.
  const wholeBatch = backendInfo().backend === 'cuda';
  const rebuilt = (stale: number, systems: number): number => (wholeBatch ? systems : stale);

  it('reuses a list until an atom moved more than skin/2, rebuilds only that system, and matches a fresh build', () => {
    const start = [argon(rattled(fcc(1.68, 3).positions, 0.05, 8), { cell: [[5.04, 0, 0], [0, 5.04, 0], [0, 0, 5.04]], pbc: true }), argon(randomCluster(30, 4, 0.95, 9))];
    const batch = ljBatch(start);
    const model = lj(0.4);
    model.compute(batch);
    expect(model.neighborStats().builds).toBe(2);
    const random = rng(10);
    const ptr = batch.ptr;
    // Many small random steps: each one stays under skin/2 from the build positions for a while.
    let rebuilds = 0;
    for (let step = 0; step < 40; step++) {
      for (let i = ptr[0]; i < ptr[1]; i++) for (let c = 0; c < 3; c++) batch.positions[3 * i + c] += 0.03 * (2 * random() - 1);
      const before = model.neighborStats().builds;
      model.compute(batch, { stress: true });
      rebuilds += model.neighborStats().builds - before;
      const fresh = ljBatch(batch.toSystems());
      lj(0.4).compute(fresh, { stress: true });
      expect(Math.abs(batch.energy[0] - fresh.energy[0])).toBeLessThan(1e-12 * Math.abs(fresh.energy[0]));
      expect(maxDifference(batch.forces, fresh.forces)).toBeLessThan(1e-11 * maxAbs(fresh.forces));
      expect(maxDifference(batch.stress, fresh.stress)).toBeLessThan(1e-11 * maxAbs(fresh.stress));
    }
    // The fastest of 108 random walkers reaches skin/2 = 0.2 every several steps; the cluster never moved.
    expect(rebuilds).toBeGreaterThan(0);
    expect(rebuilds).toBeLessThan(rebuilt(10, 20));
    const quiet = model.neighborStats().builds;
    batch.positions[3 * ptr[1]] += 0.19;
    model.compute(batch);
    expect(model.neighborStats().builds).toBe(quiet);
    batch.positions[3 * ptr[1]] += 0.02;
    model.compute(batch);
    expect(model.neighborStats().builds).toBe(quiet + rebuilt(1, 2));
  });

  it('follows a small change of a periodic cell (test/models/neighbor-deformation.test.ts), rebuilds on a large one or a pbc change, and everything for a new batch', () => {
    const system = argon(rattled(fcc(1.68, 2).positions, 0.05, 11), { cell: [[3.36, 0, 0], [0, 3.36, 0], [0, 0, 3.36]], pbc: true });
    const batch = ljBatch([system, argon(randomCluster(8, 2, 0.95, 12))]);
    const model = lj();
    model.compute(batch);
    expect(model.neighborStats()).toMatchObject({ builds: 2, resets: 1 });
    batch.cell[0] = 3.37;
    model.compute(batch);
    // cpu follows a small cell change (test/models/neighbor-deformation.test.ts); cuda rebuilds on any.
    const small = wholeBatch ? 2 : 0;
    expect(model.neighborStats()).toMatchObject({ builds: 2 + small, resets: 1 });
    batch.cell[0] = 3.0;
    model.compute(batch);
    expect(model.neighborStats()).toMatchObject({ builds: 2 + small + rebuilt(1, 2), resets: 1 });
    batch.pbc[2] = 0;
    model.compute(batch);
    expect(model.neighborStats()).toMatchObject({ builds: 2 + small + 2 * rebuilt(1, 2), resets: 1 });
    model.compute(ljBatch([system]));
    expect(model.neighborStats()).toMatchObject({ builds: 3 + small + 2 * rebuilt(1, 2), resets: 2 });
  });
});

describe('threads', () => {
  const initial = getThreads();
  afterAll(() => setThreads(initial));

  const run = (threads: number, systems: System[]): { energy: Float64Array; forces: Float64Array; stress: Float64Array } => {
    setThreads(threads);
    const batch = ljBatch(systems);
    lj().compute(batch, { stress: true });
    return { energy: Float64Array.from(batch.energy), forces: Float64Array.from(batch.forces), stress: Float64Array.from(batch.stress) };
  };

  it('do not change the results of a batch of small systems (identical bits)', () => {
    const systems = Array.from({ length: 40 }, (_, k) => (k % 2 === 0 ? argon(randomCluster(30 + k, 4, 0.95, 100 + k)) : argon(rattled(fcc(1.68, 2).positions, 0.1, k), { cell: [[3.36, 0, 0], [0, 3.36, 0], [0, 0, 3.36]], pbc: true })));
    const one = run(1, systems);
    const two = run(2, systems);
    expect(Array.from(two.energy)).toEqual(Array.from(one.energy));
    expect(Array.from(two.forces)).toEqual(Array.from(one.forces));
    expect(Array.from(two.stress)).toEqual(Array.from(one.stress));
  });

  // 2 to 4 threads: each thread's group of owners reaches the first atoms through the periodic boundary, and
  // begins inside a neighbor chunk; its atom blocks must still cover every force it adds.
  it.each([2, 3, 4])('change one large system (parallel over atoms) by at most 1e-12 relative on %i threads', (threads) => {
    const { positions, cell } = fcc((4 / 0.8442) ** (1 / 3), 14);
    const systems = [argon(rattled(positions, 0.05, 3), { cell, pbc: true })];
    const one = run(1, systems);
    const many = run(threads, systems);
    expect(Math.abs(many.energy[0] - one.energy[0])).toBeLessThan(1e-12 * Math.abs(one.energy[0]));
    expect(maxDifference(many.forces, one.forces)).toBeLessThan(1e-12 * maxAbs(one.forces));
    expect(maxDifference(many.stress, one.stress)).toBeLessThan(1e-12 * maxAbs(one.stress));
  });
});
