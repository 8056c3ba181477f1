// Batch.fromArrays: the same batch as fromSystems from flat typed arrays, refusing bad input with the same
// typed errors (docs/dynamics.md, "Bulk batches").
import { describe, expect, it } from 'vitest';

import { Batch, FIRE, LennardJones, ConvergenceHook, bulk, type BatchArrays, type System } from '../../lib/index.js';
import { perturbedLj13 } from '../dynamics/lj-systems.js';

/** A periodic copper crystal, an argon dimer with its own masses and velocities, and an empty system. */
function systems(): System[] {
  const copper = bulk('Cu', 'fcc', { a: 3.61, cubic: true });
  return [
    { ...copper, velocities: Array.from({ length: 4 }, (_, i) => [0.01 * i, -0.02, 0.003 * i]) },
    { symbols: ['Ar', 'Kr'], positions: [[0, 0, 0], [0, 0, 3.8]], masses: [40, 84], velocities: [[0.1, 0, 0], [0, 0.2, 0]] },
    { symbols: [], positions: [] },
  ];
}

/** The arrays of `systems()`, built by hand. */
function arraysOf(list: System[], { masses = true, velocities = true } = {}): BatchArrays {
  const flat = list.map((s) => Batch.fromSystems([s]));
  const join = (pick: (b: Batch) => ArrayLike<number>, Type: Float64ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor) => {
    const parts = flat.map((b) => Array.from(pick(b)));
    return Type.from(parts.flat());
  };
  return {
    positions: join((b) => b.read('positions'), Float64Array) as Float64Array,
    atomicNumbers: join((b) => b.read('atomicNumbers'), Int32Array) as Int32Array,
    numAtomsPerSystem: Int32Array.from(list, (s) => s.positions.length),
    cell: join((b) => b.read('cell'), Float64Array) as Float64Array,
    pbc: join((b) => b.read('pbc'), Uint8Array) as Uint8Array,
    ...(masses ? { masses: join((b) => b.read('masses'), Float64Array) as Float64Array } : {}),
    ...(velocities ? { velocities: join((b) => b.read('velocities'), Float64Array) as Float64Array } : {}),
  };
}

const FIELDS = ['positions', 'velocities', 'forces', 'masses', 'atomicNumbers', 'systemIndex', 'energy', 'stress', 'cell', 'pbc', 'status', 'systemId', 'numAtoms', 'ptr'] as const;

describe('Batch.fromArrays', () => {
  it('builds the batch fromSystems builds, field for field', () => {
    const list = systems();
    const expected = Batch.fromSystems(list);
    const batch = Batch.fromArrays(arraysOf(list));
    expect(batch.numSystems).toBe(3);
    expect(batch.numAtoms).toBe(6);
    for (const field of FIELDS) expect({ field, values: Array.from(batch.read(field)) }).toEqual({ field, values: Array.from(expected.read(field)) });
    expect(batch.toSystems()).toEqual(expected.toSystems());
  });

  it('takes masses from the element table (metal) or 1 (lj), and zero velocities, when they are left out', () => {
    const arrays = arraysOf(systems(), { masses: false, velocities: false });
    expect(Array.from(Batch.fromArrays(arrays).read('masses'))).toEqual([63.546, 63.546, 63.546, 63.546, 39.948, 83.798]);
    expect(Array.from(Batch.fromArrays(arrays, { units: 'lj' }).read('masses'))).toEqual([1, 1, 1, 1, 1, 1]);
    expect(Batch.fromArrays(arrays).read('velocities').every((v) => v === 0)).toBe(true);
    const noCell = { positions: arrays.positions, atomicNumbers: arrays.atomicNumbers, numAtomsPerSystem: arrays.numAtomsPerSystem };
    expect(Array.from(Batch.fromArrays(noCell).read('pbc'))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('relaxes to the same energies as the same clusters built fromSystems', async () => {
    const clusters = [0.05, 0.1, 0.15].map((amplitude, k) => perturbedLj13(amplitude, k));
    const relax = async (batch: Batch): Promise<number[]> => {
      await new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 }), convergence: ConvergenceHook.fromFmax(1e-3) }).run(batch, { steps: 2000 });
      return Array.from(batch.read('energy'));
    };
    const arrays: BatchArrays = {
      positions: Float64Array.from(clusters.flatMap((c) => (c.positions as number[][]).flat())),
      atomicNumbers: new Int32Array(39).fill(18),
      numAtomsPerSystem: Int32Array.of(13, 13, 13),
    };
    expect(await relax(Batch.fromArrays(arrays, { units: 'lj' }))).toEqual(await relax(Batch.fromSystems(clusters, { units: 'lj' })));
  });

  it('refuses bad input with typed errors naming the field, the system and the value', () => {
    const good = (): BatchArrays => arraysOf(systems());
    const refuse = (arrays: unknown, code: string, message: RegExp, options?: unknown): void => {
      let caught: unknown;
      try {
        Batch.fromArrays(arrays as BatchArrays, options as undefined);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code });
      expect((caught as Error).message).toMatch(message);
    };
    refuse(null, 'INVALID_ARRAYS', /expected an object/);
    refuse({ ...good(), positions: Array.from(good().positions) }, 'INVALID_ARRAY', /positions must be a Float64Array .* got Array/);
    refuse({ ...good(), numAtomsPerSystem: [4, 2, 0] }, 'INVALID_ARRAY', /numAtomsPerSystem must be a Int32Array/);
    refuse({ ...good(), atomicNumbers: new Float64Array(6) }, 'INVALID_ARRAY', /atomicNumbers must be a Int32Array/);
    refuse({ ...good(), numAtomsPerSystem: Int32Array.of(4, 3, 0) }, 'LENGTH_MISMATCH', /positions has 18 entries, expected 21/);
    refuse({ ...good(), numAtomsPerSystem: Int32Array.of(5, -1, 2) }, 'INVALID_ATOM_COUNT', /numAtomsPerSystem\[1\] is -1/);
    const nan = good();
    nan.positions[3 * 5 + 2] = Number.NaN;
    refuse(nan, 'INVALID_POSITIONS', /positions\[5\]\[2\] \(system 1\) is NaN/);
    const element = good();
    element.atomicNumbers[4] = 0;
    refuse(element, 'UNKNOWN_ELEMENT', /atomicNumbers\[4\] \(system 1\): unknown atomic number 0/);
    const cell = good();
    cell.cell![9 + 4] = Infinity;
    refuse(cell, 'INVALID_CELL', /cell\[1\]\[4\] is Infinity/);
    const pbc = good();
    pbc.pbc![4] = 2;
    refuse(pbc, 'INVALID_PBC', /pbc\[1\]\[1\] is 2/);
    const singular = good();
    singular.cell!.fill(0, 0, 9);
    refuse(singular, 'SINGULAR_CELL', /cell\[0\] has zero volume/);
    const mass = good();
    mass.masses![5] = 0;
    refuse(mass, 'INVALID_MASS', /masses\[5\] \(system 1\) is 0/);
    const velocity = good();
    velocity.velocities![0] = -Infinity;
    refuse(velocity, 'INVALID_VELOCITIES', /velocities\[0\]\[0\] \(system 0\) is -Infinity/);
    refuse({ ...good(), cell: new Float64Array(9) }, 'LENGTH_MISMATCH', /cell has 9 entries, expected 27/);
    refuse(good(), 'INVALID_OPTIONS', /options must be an object/, 'lj');
    const { positions, ...rest } = good();
    refuse({ ...rest, positons: positions }, 'UNKNOWN_OPTION', /unknown option positons \(did you mean positions\?\)/);
    refuse(good(), 'UNKNOWN_OPTION', /unknown option unit \(did you mean units\?\)/, { unit: 'lj' });
  });

  // The checks run over the flat arrays with offsets (no view per system): the volume of each system's
  // periodic directions is read at its own offset, whatever its neighbours hold.
  it('checks each system\'s periodic volume at its own offset: slabs, wires, no cell', () => {
    const three = { positions: new Float64Array(9), atomicNumbers: new Int32Array(3).fill(18), numAtomsPerSystem: Int32Array.of(1, 1, 1) };
    const cell = new Float64Array(27);
    cell.set([4, 0, 0, 0, 4, 0, 0, 0, 0], 0); // a slab (x, y periodic) with no z vector
    cell.set([0, 0, 0, 0, 0, 0, 0, 0, 5], 9); // a wire along z
    cell.set([3, 0, 0, 6, 0, 0, 0, 0, 9], 18); // x and y parallel
    const pbc = Uint8Array.of(1, 1, 0, 0, 0, 1, 1, 1, 0);
    const refuse = (arrays: BatchArrays): unknown => {
      try {
        Batch.fromArrays(arrays);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refuse({ ...three, cell, pbc })).toMatchObject({ code: 'SINGULAR_CELL', details: { index: 2, value: [3, 0, 0, 6, 0, 0, 0, 0, 9] } });
    pbc[6] = 0; // system 2 becomes a wire along y, of length 6
    const batch = Batch.fromArrays({ ...three, cell, pbc });
    expect(Array.from(batch.read('pbc'))).toEqual(Array.from(pbc));
    expect(Array.from(batch.read('cell'))).toEqual(Array.from(cell));
    pbc.set([1, 0, 0], 3); // system 1 becomes a wire along x, whose vector is zero
    expect(refuse({ ...three, cell, pbc })).toMatchObject({ code: 'SINGULAR_CELL', details: { index: 1 } });
    // Periodic flags without a cell: every periodic volume is zero.
    expect(refuse({ ...three, pbc: Uint8Array.of(0, 0, 0, 0, 0, 1, 0, 0, 0) })).toMatchObject({ code: 'SINGULAR_CELL', details: { index: 1, value: Array(9).fill(0) } });
  });

  it('refuses atom counts past the limit before it reads any per-atom array', () => {
    const counts = (numAtomsPerSystem: Int32Array): unknown => {
      try {
        Batch.fromArrays({ positions: new Float64Array(0), atomicNumbers: new Int32Array(0), numAtomsPerSystem });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(counts(Int32Array.of(0, 2 ** 30))).toMatchObject({ code: 'TOO_MANY_ATOMS', message: expect.stringMatching(/system 1 has 1073741824 atoms/) });
    expect(counts(Int32Array.of(2 ** 28, 2 ** 28, 2 ** 28))).toMatchObject({ code: 'TOO_MANY_ATOMS', message: expect.stringMatching(/the batch has 805306368 atoms/) });
    expect(counts(Int32Array.of(2 ** 30, -1))).toMatchObject({ code: 'TOO_MANY_ATOMS' });
    expect(counts(Int32Array.of(3, -1, 2 ** 30))).toMatchObject({ code: 'INVALID_ATOM_COUNT', details: { index: 1, value: -1 } });
  });

  it('gives every system an empty info object of its own, kept through select', () => {
    const batch = Batch.fromArrays({ positions: new Float64Array(6), atomicNumbers: Int32Array.of(18, 18), numAtomsPerSystem: Int32Array.of(1, 1) });
    expect(batch.info).toEqual([{}, {}]);
    expect(batch.info[0]).not.toBe(batch.info[1]);
    (batch.info[1] as Record<string, unknown>).tag = 'second';
    expect(batch.info[1]).toEqual({ tag: 'second' });
    expect(batch.select([1]).info).toEqual([{ tag: 'second' }]);
    expect(Array.from(batch.read('systemIndex'))).toEqual([0, 1]);
    expect(Array.from(batch.read('systemId'))).toEqual([0, 1]);
  });
});
