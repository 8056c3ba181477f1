// Issue 19, item 1: neighbor searches whose cutoff dwarfs a periodic cell (or whose cell is a sliver) once
// overflowed int arithmetic in the bin grid and crashed the process; they must end in a typed error.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Batch, bulk } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { LennardJones, Morse } from '../../lib/models/index.js';
import type { Model } from '../../lib/models/index.js';
import { ensureBuilt, runCli, workDir } from '../cli/run-cli.js';

const crystal = (): System => bulk('Ar', 'fcc', { a: 5.26, cubic: true });
const argon = (positions: number[][], extra: Partial<System>): System => ({ symbols: positions.map(() => 'Ar'), positions, ...extra });
const lj = (cutoff: number, skin?: number): LennardJones => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff, skin });
const morse = (cutoff: number, skin?: number): Morse => new Morse({ D: 0.3429, alpha: 1.3588, r0: 2.866, cutoff, skin });
const narrow = expect.objectContaining({ code: 'CELL_TOO_NARROW' });

/** Computes and returns the error, or undefined after checking that every result is finite. */
function outcome(model: Model, system: System): unknown {
  const batch = Batch.fromSystems([system]);
  try {
    model.compute(batch, { stress: true });
  } catch (error) {
    return error;
  }
  expect(Number.isFinite(batch.energy[0])).toBe(true);
  expect(Array.from(batch.forces).every(Number.isFinite)).toBe(true);
  return undefined;
}

describe('neighbor search limits', () => {
  it.each([
    { name: 'LJ, cutoff 1e11', model: () => lj(1e11) },
    { name: 'LJ, skin 1e12', model: () => lj(8, 1e12) },
    { name: 'Morse, cutoff 1e11', model: () => morse(1e11) },
    { name: 'Morse, skin 1e12', model: () => morse(8, 1e12) },
  ])('refuse a periodic crystal with $name as CELL_TOO_NARROW', ({ model }) => {
    expect(outcome(model(), crystal())).toEqual(narrow);
  });

  it.each([1e9, 3e9, 1e10])('count the images of cutoff %d without overflowing in the message', (cutoff) => {
    const error = outcome(lj(cutoff), crystal()) as Error;
    expect(error).toEqual(narrow);
    expect(error.message).toMatch(/needs \d(\.\d+)?e\+\d+ periodic images \(limit 1048576\)/);
    expect(error.message).not.toContain('-');
  });

  it('refuse a periodic cell 1e-10 Å thick', () => {
    const cell = [[10, 0, 0], [0, 10, 0], [0, 0, 1e-10]];
    expect(outcome(lj(8), argon([[0, 0, 0], [5, 5, 0], [5, 0, 0], [0, 5, 0]], { cell, pbc: true }))).toEqual(narrow);
  });

  it('refuse a slab whose periodic plane is 1e-9 Å high', () => {
    const cell = [[10, 0, 0], [0, 1e-9, 0], [0, 0, 10]];
    expect(outcome(lj(8), argon([[0, 0, 0], [5, 0, 3], [2, 0, 6]], { cell, pbc: [true, true, false] }))).toEqual(narrow);
  });

  it('compute a slab whose atoms span 1e-9 Å along its open direction', () => {
    const cell = [[10, 0, 0], [0, 10, 0], [0, 0, 10]];
    const positions = [[0, 0, 0], [5, 5, 1e-9], [5, 0, 0.5e-9], [0, 5, 0]];
    expect(outcome(lj(8), argon(positions, { cell, pbc: [true, true, false] }))).toBeUndefined();
  });

  it('refuse a cluster whose extent overflows a double as INVALID_POSITIONS', () => {
    const positions = [[-1.5e308, 0, 0], [1.5e308, 0, 0]];
    expect(outcome(lj(8), argon(positions, { pbc: false }))).toEqual(expect.objectContaining({ code: 'INVALID_POSITIONS' }));
  });

  describe('hookmd relax --model lj:...,cutoff=1e12', () => {
    let dir = '';
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('exits with a typed error, not a signal', async () => {
      ensureBuilt();
      dir = workDir();
      await writeExtxyz(join(dir, 'argon.xyz'), [crystal()]);
      const result = await runCli(['relax', 'argon.xyz', '--model', 'lj:epsilon=0.0104,sigma=3.4,cutoff=1e12', '--out', 'out.xyz'], { cwd: dir });
      // A crash would leave code null (killed by a signal).
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/so narrow compared with the cutoff that the search needs \d(\.\d+)?e\+\d+ periodic images/);
    });
  });
});
