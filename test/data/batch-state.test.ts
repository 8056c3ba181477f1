// State that must stay true across edits, failures and refills: species changed through a view reach the
// model, a refill that fails leaves the batch as it was, and a compute that fails leaves no stale result
// flagged valid. Each of these once went wrong (found in review).
import { describe, expect, it } from 'vitest';

import { Batch, bulk, FIRE, FreezeAtomsHook, LennardJones, repeat } from '../../lib/index.js';

const argonCrystal = () => repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [2, 2, 2]);

describe('Batch state', () => {
  it('a species changed through batch.atomicNumbers reaches the model', () => {
    const batch = Batch.fromSystems([argonCrystal()]);
    const model = new LennardJones({ cutoff: 8, pairs: { 'Ar-Ar': { epsilon: 0.0104, sigma: 3.4 } } });
    model.compute(batch);
    batch.atomicNumbers[3] = 36;
    expect(() => model.compute(batch)).toThrow(expect.objectContaining({ code: 'MISSING_PAIR' }));
  });

  it('a refill that native code refuses leaves the batch as it was', () => {
    const batch = Batch.fromSystems([argonCrystal(), argonCrystal()]);
    const before = batch.read('positions').slice();
    expect(() => batch.refill([5], [])).toThrow(expect.objectContaining({ code: 'INVALID_INDEX' }));
    expect(batch.numSystems).toBe(2);
    expect(batch.info).toHaveLength(2);
    expect(batch.read('positions')).toEqual(before);
  });

  it('a compute that fails part-way leaves no result flagged valid', () => {
    const ok = { ...argonCrystal(), energy: -1, forces: Array.from({ length: 32 }, () => [0, 0, 0]) };
    const narrow = { symbols: ['Ar'], positions: [[0, 0, 0]], cell: [[1e-3, 0, 0], [0, 1e-3, 0], [0, 0, 1e-3]], pbc: [true, true, true], energy: -2 };
    const batch = Batch.fromSystems([ok, narrow]);
    expect(Array.from(batch.resultValid('energy'))).toEqual([1, 1]);
    expect(() => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8 }).compute(batch)).toThrow(expect.objectContaining({ code: 'CELL_TOO_NARROW' }));
    expect(Array.from(batch.resultValid('energy'))).toEqual([0, 0]);
    expect(batch.toSystems().map((s) => s.energy)).toEqual([undefined, undefined]);
  });

  it('FreezeAtomsHook refuses a stream, whose refills would pin the wrong atoms', async () => {
    const fire = new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 }), hooks: [new FreezeAtomsHook({ indices: [0] })] });
    const clusters = Array.from({ length: 12 }, (_, i) => ({ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [1.2 + 0.01 * i, 0, 0]] }));
    await expect(fire.runStream(clusters, { sinks: [], maxAtoms: 8, refillEvery: 2, maxSteps: 50, units: 'lj' })).rejects.toMatchObject({ code: 'INVALID_HOOK' });
  });
});
