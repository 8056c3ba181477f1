import { describe, expect, it } from 'vitest';

import { Batch, nativeBatchOf, standardMass } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';

const water: System = {
  symbols: ['O', 'H', 'H'],
  positions: [[0, 0, 0.119], [0, 0.763, -0.477], [0, -0.763, -0.477]],
  info: { name: 'water', tags: [1, 2] },
};
const argonCrystal: System = {
  atomicNumbers: [18, 18],
  positions: [0, 0, 0, 2.6, 2.6, 0],
  cell: [[5.2, 0, 0], [0, 5.2, 0], [1.0, 0, 5.2]],
  pbc: [true, true, false],
  velocities: [[0.01, 0, 0], [0, -0.01, 0.002]],
  masses: [40, 41],
};

describe('Batch ↔ systems round trip', () => {
  it('returns every input field unchanged, with default masses from the element table', () => {
    const batch = Batch.fromSystems([water, argonCrystal]);
    expect(batch.numSystems).toBe(2);
    expect(batch.numAtoms).toBe(5);
    expect(Array.from(batch.ptr)).toEqual([0, 3, 5]);
    expect(Array.from(batch.systemIndex)).toEqual([0, 0, 0, 1, 1]);
    const [w, ar] = batch.toSystems();
    expect(w.symbols).toEqual(['O', 'H', 'H']);
    expect(w.positions).toEqual(water.positions);
    expect(w.masses).toEqual([15.999, 1.008, 1.008]);
    expect(w.pbc).toEqual([false, false, false]);
    expect(w.info).toEqual({ name: 'water', tags: [1, 2], systemId: 0 });
    expect(ar.symbols).toEqual(['Ar', 'Ar']);
    expect(ar.positions).toEqual([[0, 0, 0], [2.6, 2.6, 0]]);
    expect(ar.cell).toEqual(argonCrystal.cell);
    expect(ar.pbc).toEqual([true, true, false]);
    expect(ar.velocities).toEqual(argonCrystal.velocities);
    expect(ar.masses).toEqual([40, 41]);
    expect(ar.info.systemId).toBe(1);
  });

  it('takes three cell lengths as an orthorhombic cell and a boolean pbc', () => {
    const [s] = Batch.fromSystems([{ symbols: ['Cu'], positions: [[0, 0, 0]], cell: [3, 4, 5], pbc: true }]).toSystems();
    expect(s.cell).toEqual([[3, 0, 0], [0, 4, 0], [0, 0, 5]]);
    expect(s.pbc).toEqual([true, true, true]);
  });

  it('uses unit mass in lj units and the element table in metal units', () => {
    const lj = Batch.fromSystems([{ symbols: ['Ar'], positions: [[0, 0, 0]] }], { units: 'lj' });
    expect(lj.units.name).toBe('lj');
    expect(lj.units.kB).toBe(1);
    expect(lj.masses[0]).toBe(1);
    const metal = Batch.fromSystems([{ symbols: ['Ar'], positions: [[0, 0, 0]] }]);
    expect(metal.masses[0]).toBe(standardMass(18));
    expect(metal.units.kB).toBe(8.617333262e-5);
  });
});

describe('views alias native memory', () => {
  it('a write through a view is what native code reads', () => {
    const batch = Batch.fromSystems([water, argonCrystal]);
    const forces = batch.forces;
    forces.set([3, 4, 0], 3 * 1); // atom 1 of system 0: |F| = 5
    forces.set([0, 0, -2], 3 * 4); // atom 4 of system 1: |F| = 2
    const native = nativeBatchOf(batch);
    expect(Array.from(native.fmax())).toEqual([5, 2]);
    expect(Array.from(native.reduce('forces', 'sum'))).toEqual([5, 2]);
    expect(native.reduce('forces', 'norm')[0]).toBeCloseTo(5, 14);
    // Kinetic energy in eV: ½ m v² / 9.648533212e-3 for metal units.
    const velocities = batch.velocities;
    velocities.fill(0);
    velocities[0] = 0.01;
    expect(native.kineticEnergy()[0]).toBeCloseTo((0.5 * 15.999 * 1e-4) / 9.648533212e-3, 12);
  });

  it('layout fields are copies, so a stray write cannot corrupt native indexing', () => {
    const batch = Batch.fromSystems([water, argonCrystal]);
    batch.ptr[1] = 1000;
    batch.systemIndex[0] = 7;
    expect(Array.from(batch.ptr)).toEqual([0, 3, 5]);
    expect(Array.from(nativeBatchOf(batch).fmax())).toEqual([0, 0]);
    expect(Array.from(nativeBatchOf(batch).view('ptr'))).toEqual([0, 3, 5]);
  });

  it('native writes show through an existing view', () => {
    const batch = Batch.fromSystems([water]);
    const view = batch.positions;
    nativeBatchOf(batch).write('positions', new Float64Array(9).fill(7));
    expect(view[4]).toBe(7);
  });
});

describe('select and append', () => {
  it('select keeps per-system fields, info, extra fields and systemId', () => {
    const batch = Batch.fromSystems([water, argonCrystal, water]);
    batch.energy.set([-1, -2, -3]);
    batch.status.set([0, 5, 7]);
    const charge = batch.registerField('charge', { per: 'atom' });
    charge.set([1, 2, 3, 4, 5, 6, 7, 8]);
    batch.registerField('score', { per: 'system', fill: 9 });
    const picked = batch.select([2, 1]);
    expect(picked.numSystems).toBe(2);
    expect(Array.from(picked.systemId)).toEqual([2, 1]);
    expect(Array.from(picked.energy)).toEqual([-3, -2]);
    expect(Array.from(picked.status)).toEqual([7, 5]);
    expect(Array.from(picked.field('charge'))).toEqual([6, 7, 8, 4, 5]);
    expect(Array.from(picked.field('score'))).toEqual([9, 9]);
    expect(Array.from(picked.ptr)).toEqual([0, 3, 5]);
    expect(picked.toSystems()[1].cell).toEqual(argonCrystal.cell);
    expect(picked.info[0]).toEqual({ name: 'water', tags: [1, 2] });
  });

  it('append grows in place, keeps old data and issues new systemIds', () => {
    const batch = Batch.fromSystems([water, argonCrystal]);
    batch.energy.set([-1, -2]);
    batch.registerField('score', { per: 'system', fill: -1 }).set([10, 20]);
    const dropped = batch.select([1]);
    expect(batch.append([argonCrystal])).toBe(batch);
    expect(batch.numSystems).toBe(3);
    expect(Array.from(batch.systemId)).toEqual([0, 1, 2]);
    expect(Array.from(batch.energy)).toEqual([-1, -2, 0]);
    expect(Array.from(batch.field('score'))).toEqual([10, 20, -1]);
    expect(Array.from(batch.ptr)).toEqual([0, 3, 5, 7]);
    dropped.append([water]);
    expect(Array.from(dropped.systemId)).toEqual([1, 2]);
  });

  it('rejects out-of-range and duplicate indices', () => {
    const batch = Batch.fromSystems([water]);
    expect(() => batch.select([1])).toThrow(expect.objectContaining({ code: 'INVALID_INDEX' }));
    expect(() => batch.select([0, 0])).toThrow(expect.objectContaining({ code: 'DUPLICATE_INDEX' }));
  });
});
