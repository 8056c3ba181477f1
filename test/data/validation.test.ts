import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError, isHookmdError } from '../../lib/errors.js';

const ok: System = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 3.8]] };

function rejection(systems: unknown, options?: object): { code: string; message: string; error: unknown } {
  try {
    Batch.fromSystems(systems as System[], options as never);
  } catch (error) {
    expect(isHookmdError(error)).toBe(true);
    const { code, message } = error as { code: string; message: string };
    return { code, message, error };
  }
  throw new Error('expected Batch.fromSystems to throw');
}

describe('bad input gets a typed error that names the field and the value (DESIGN §8)', () => {
  it.each([
    ['NaN coordinate', [{ ...ok, positions: [[0, 0, 0], [0, NaN, 3.8]] }], 'INVALID_POSITIONS', /systems\[0\]\.positions\[1\]\[1\] is NaN/],
    ['Infinity coordinate', [ok, { ...ok, positions: [0, 0, Infinity, 0, 0, 1] }], 'INVALID_POSITIONS', /systems\[1\]\.positions\[0\]\[2\] is Infinity/],
    ['symbols length mismatch', [{ ...ok, symbols: ['Ar'] }], 'LENGTH_MISMATCH', /symbols must have 2 entries/],
    ['positions row width', [{ ...ok, positions: [[0, 0], [0, 0, 1]] }], 'LENGTH_MISMATCH', /positions\[0\] must have 3 components/],
    ['flat positions not multiple of 3', [{ ...ok, positions: [0, 0, 0, 1] }], 'LENGTH_MISMATCH', /not a multiple of 3/],
    ['velocities length mismatch', [{ ...ok, velocities: [[0, 0, 0]] }], 'LENGTH_MISMATCH', /velocities has 1 rows, expected 2/],
    ['zero mass', [{ ...ok, masses: [1, 0] }], 'INVALID_MASS', /masses\[1\] is 0/],
    ['negative mass', [{ ...ok, masses: [-1, 1] }], 'INVALID_MASS', /masses\[0\] is -1/],
    ['unknown symbol', [{ ...ok, symbols: ['Ar', 'Xx'] }], 'UNKNOWN_ELEMENT', /symbols\[1\]: unknown element "Xx"/],
    ['unknown atomic number', [{ positions: [[0, 0, 0]], atomicNumbers: [119] }], 'UNKNOWN_ELEMENT', /unknown atomic number 119/],
    ['no species', [{ positions: [[0, 0, 0]] }], 'MISSING_SPECIES', /needs symbols or atomicNumbers/],
    ['singular periodic cell', [{ ...ok, cell: [[1, 0, 0], [2, 0, 0], [0, 0, 1]], pbc: true }], 'SINGULAR_CELL', /zero volume/],
    ['NaN in cell', [{ ...ok, cell: [[1, 0, 0], [0, NaN, 0], [0, 0, 1]] }], 'INVALID_CELL', /cell\[1\]\[1\] is NaN/],
    ['bad pbc', [{ ...ok, pbc: [true, false] }], 'INVALID_PBC', /pbc must be/],
    ['not iterable', 42, 'INVALID_SYSTEMS', /iterable/],
  ])('%s', (_, systems, code, message) => {
    const result = rejection(systems);
    expect(result.code).toBe(code);
    expect(result.message).toMatch(message);
    expect(result.message.startsWith('Batch.fromSystems')).toBe(true);
  });

  it('uses RangeError and TypeError subclasses where the idiom fits', () => {
    expect(rejection([{ ...ok, masses: [1, 0] }]).error).toBeInstanceOf(HookmdRangeError);
    expect(rejection([{ ...ok, symbols: ['Ar'] }]).error).toBeInstanceOf(HookmdTypeError);
    expect(rejection([{ ...ok, symbols: ['Ar', 'Zz'] }]).error).toBeInstanceOf(HookmdError);
  });

  it('rejects unknown units', () => {
    expect(rejection([ok], { units: 'cgs' }).code).toBe('INVALID_UNITS');
  });

  it('a failed append leaves the batch unchanged', () => {
    const batch = Batch.fromSystems([ok]);
    batch.positions[0] = 0.5;
    expect(() => batch.append([{ ...ok, masses: [0, 1] }])).toThrow(expect.objectContaining({ code: 'INVALID_MASS' }));
    expect(batch.numSystems).toBe(1);
    expect(batch.positions[0]).toBe(0.5);
  });
});
