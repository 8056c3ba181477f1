// Issue 19, items 12 and 14: inputs that used to escape as untyped TypeError/RangeError (or a heap abort),
// and a slab whose non-periodic cell vector is zero, which docs/models.md allows.
import { describe, expect, it } from 'vitest';

import { Batch, bulk, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { MAX_ATOMS } from '../../lib/data/limits.js';
import { HookRegistry } from '../../lib/hooks/index.js';
import { DynamicsStage, VelocityVerlet } from '../../lib/dynamics/index.js';
import { isHookmdError } from '../../lib/errors.js';
import { LennardJones } from '../../lib/models/index.js';

const argon = (positions: unknown): System => ({ symbols: ['Ar'], positions } as unknown as System);

function typed(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (error) {
    expect(isHookmdError(error), String(error)).toBe(true);
    return error as { code: string; message: string };
  }
  throw new Error('expected a typed error');
}

describe('untyped errors become typed HookmdErrors with a code (issue 19, item 12)', () => {
  it.each([
    ['a BigInt coordinate', [[1n, 0, 0]], 'INVALID_POSITIONS', /positions\[0\] must be a number, got bigint 1n/],
    ['a Symbol coordinate', [[Symbol('x'), 0, 0]], 'INVALID_POSITIONS', /positions\[0\] must be a number, got symbol Symbol\(x\)/],
    ['a BigInt in flat positions', [0, 0, 2n], 'INVALID_POSITIONS', /must be a number, got bigint/],
    ['an array-like of negative length', { length: -3 }, 'INVALID_POSITIONS', /positions must be an array/],
    ['an array-like of fractional length', { length: 4.5 }, 'INVALID_POSITIONS', /positions must be an array/],
  ])('%s', (_, positions, code, message) => {
    const error = typed(() => Batch.fromSystems([argon(positions)]));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('a 1e9-atom system is TOO_MANY_ATOMS before anything is allocated', () => {
    const huge = { atomicNumbers: { length: 1e9 }, positions: { length: 3e9 } } as unknown as System;
    const error = typed(() => Batch.fromSystems([huge]));
    expect(error.code).toBe('TOO_MANY_ATOMS');
    expect(error.message).toContain(`at most ${MAX_ATOMS}`);
  });

  it('repeat() refuses a 1e9-atom supercell instead of exhausting the heap', () => {
    const error = typed(() => repeat(bulk('Cu', 'fcc', { a: 3.6, cubic: true }), [630, 630, 630]));
    expect(error.code).toBe('TOO_MANY_ATOMS');
  });

  it('Batch.fromSystems(systems, null) is INVALID_OPTIONS', () => {
    const error = typed(() => Batch.fromSystems([argon([[0, 0, 0]])], null as never));
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(error.message).toMatch(/^Batch\.fromSystems: options must be an object/);
  });

  it('hooks: 5 is INVALID_HOOKS, register(null) is INVALID_HOOK', () => {
    const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    expect(typed(() => new VelocityVerlet({ model, dt: 1, hooks: 5 as never })).code).toBe('INVALID_HOOKS');
    const engine = new VelocityVerlet({ model, dt: 1 });
    expect(typed(() => engine.register(null as never)).code).toBe('INVALID_HOOK');
    expect(typed(() => engine.register(undefined as never)).code).toBe('INVALID_HOOK');
    expect(typed(() => new HookRegistry(DynamicsStage).register(null as never)).code).toBe('INVALID_HOOK');
  });
});

describe('a slab may leave its non-periodic cell vector zero (issue 19, item 14; docs/models.md)', () => {
  const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
  // A 2×2 square layer of atoms, periodic in x and y, with and without a vector along z.
  const slab = (c: number): System => ({
    symbols: ['Ar', 'Ar', 'Ar', 'Ar'],
    positions: [[0, 0, 0], [1.1, 0, 0.1], [0, 1.1, -0.1], [1.1, 1.1, 0]],
    cell: [[2.2, 0, 0], [0, 2.2, 0], [0, 0, c]],
    pbc: [true, true, false],
  });

  it('is accepted, and gives the same energy and forces as the slab with a vector along z', () => {
    const zero = Batch.fromSystems([slab(0)], { units: 'lj' });
    const tall = Batch.fromSystems([slab(20)], { units: 'lj' });
    lj().compute(zero);
    lj().compute(tall);
    expect(Number.isFinite(zero.read('energy')[0])).toBe(true);
    expect(zero.read('energy')[0]).toBeCloseTo(tall.read('energy')[0], 12);
    const [a, b] = [zero.read('forces'), tall.read('forces')];
    for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i], 12);
  });

  it('degenerate periodic vectors are still SINGULAR_CELL', () => {
    const flat = { ...slab(0), cell: [[2.2, 0, 0], [4.4, 0, 0], [0, 0, 0]] };
    expect(typed(() => Batch.fromSystems([flat], { units: 'lj' })).code).toBe('SINGULAR_CELL');
    const wire = { ...slab(0), cell: [[0, 0, 0], [0, 2.2, 0], [0, 0, 0]], pbc: [true, false, false] };
    expect(typed(() => Batch.fromSystems([wire], { units: 'lj' })).code).toBe('SINGULAR_CELL');
  });
});
