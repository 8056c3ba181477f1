// Issue 19, item 8: atoms at distance 0 gave an infinite energy and NaN forces, and the first step then
// failed with a misleading INVALID_POSITIONS. Compute must name the system and the pair instead.
import { afterEach, describe, expect, it } from 'vitest';

import { Batch, bulk, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { FIRE, VelocityVerlet } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { getThreads, setThreads } from '../../lib/native/index.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8 });
const dimer: System = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [3.8, 0, 0]] };

/** An fcc argon crystal whose atom `copy` is repeated at the end, shifted by `shift`. */
function withCopy(crystal: System, copy: number, shift: number[] = [0, 0, 0]): System {
  const positions = crystal.positions as number[][];
  const duplicate = positions[copy].map((x, c) => x + shift[c]);
  const all = [...positions, duplicate];
  return { symbols: all.map(() => 'Ar'), positions: all, cell: crystal.cell, pbc: crystal.pbc };
}

function computeError(batch: Batch): Error {
  try {
    lj().compute(batch);
  } catch (error) {
    return error as Error;
  }
  throw new Error('compute did not throw');
}

describe('overlapping atoms', () => {
  const threads = getThreads();
  afterEach(() => setThreads(threads));

  it('name the system, its systemId, both atoms (batch indices) and their distance', () => {
    const crystal = bulk('Ar', 'fcc', { a: 5.26, cubic: true });
    const error = computeError(Batch.fromSystems([dimer, withCopy(crystal, 2)]));
    expect(error).toMatchObject({ name: 'HookmdError', code: 'OVERLAPPING_ATOMS' });
    expect(error.message).toBe('LennardJones: atoms 4 and 6 of system 1 (systemId 1) are 0 apart (closer than 1e-06), ' +
      'which makes the energy non-finite; separate or remove one of them');
  });

  it('report the systemId, which differs from the index after a selection', () => {
    const batch = Batch.fromSystems([withCopy(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), 0), dimer]).select([1, 0]);
    expect(computeError(batch).message).toContain('atoms 2 and 6 of system 1 (systemId 0)');
  });

  it('find a pair that overlaps through a periodic image', () => {
    const crystal = bulk('Ar', 'fcc', { a: 5.26, cubic: true });
    const error = computeError(Batch.fromSystems([withCopy(crystal, 1, [5.26, 0, -5.26])]));
    expect(error.message).toContain('atoms 1 and 4 of system 0 (systemId 0) are 0 apart');
  });

  it('find it in a system large enough to run on every thread', () => {
    setThreads(2);
    const crystal = repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [7, 7, 7]);
    expect(computeError(Batch.fromSystems([withCopy(crystal, 700)])).message).toContain('atoms 700 and 1372 of system 0');
  });

  it.each([
    { name: 'FIRE', engine: () => new FIRE({ model: lj() }) },
    { name: 'VelocityVerlet', engine: () => new VelocityVerlet({ model: lj(), dt: 1 }) },
  ])('stop $name at the first compute, before any INVALID_POSITIONS', ({ engine }) => {
    const batch = Batch.fromSystems([withCopy(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), 3)]);
    expect(() => engine().runSync(batch, { steps: 3 })).toThrow(expect.objectContaining({ code: 'OVERLAPPING_ATOMS' }));
  });

  it('leave close but distinct atoms alone: their energy is finite', () => {
    const batch = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0.01, 0, 0]] }]);
    lj().compute(batch);
    expect(Number.isFinite(batch.energy[0])).toBe(true);
  });
});
