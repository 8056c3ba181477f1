import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { HookmdRangeError, HookmdTypeError } from '../../lib/errors.js';
import { JsModel, LennardJones } from '../../lib/models/index.js';
import type { JsModelResult } from '../../lib/models/index.js';

const twoSystems = (): Batch =>
  Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 1.1]] }, { symbols: ['Ar', 'Ar', 'Ar'], positions: [[0, 0, 0], [1.2, 0, 0], [0, 1.3, 0]] }], { units: 'lj' });

function codeOf(fn: () => unknown): { error: unknown; code: string } {
  try {
    fn();
  } catch (error) {
    return { error, code: (error as { code: string }).code };
  }
  throw new Error('expected a throw');
}

describe('JsModel', () => {
  it('writes the callback results into the batch, and can stand in for a native model', () => {
    const reference = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    const wrapped = new JsModel((batch, request) => {
      const copy = Batch.fromSystems(batch.toSystems(), { units: 'lj' });
      reference.compute(copy, request);
      return { energy: copy.energy, forces: copy.forces, stress: request.stress ? copy.stress : undefined };
    }, { name: 'WrappedLJ', cutoff: 2.5 });
    const batch = twoSystems();
    wrapped.compute(batch, { stress: true });
    const expected = twoSystems();
    reference.compute(expected, { stress: true });
    expect(Array.from(batch.energy)).toEqual(Array.from(expected.energy));
    expect(Array.from(batch.forces)).toEqual(Array.from(expected.forces));
    expect(Array.from(batch.stress)).toEqual(Array.from(expected.stress));
    expect(wrapped.native).toBeUndefined();
    expect(wrapped.describe()).toMatchObject({ name: 'WrappedLJ', cutoff: 2.5 });
  });

  it('accepts nested rows as well as flat arrays', () => {
    const model = new JsModel(() => ({ energy: [1, 2], forces: [[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 1, 1], [2, 2, 2]] }));
    const batch = twoSystems();
    model.compute(batch);
    expect(Array.from(batch.energy)).toEqual([1, 2]);
    expect(Array.from(batch.forces.subarray(0, 6))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it.each<{ name: string; result: unknown; code: string; type: unknown; stress?: boolean }>([
    { name: 'too few energies', result: { energy: [1], forces: new Float64Array(15) }, code: 'LENGTH_MISMATCH', type: HookmdTypeError },
    { name: 'forces of the wrong length', result: { energy: [1, 2], forces: new Float64Array(14) }, code: 'LENGTH_MISMATCH', type: HookmdTypeError },
    { name: 'missing forces', result: { energy: [1, 2] }, code: 'INVALID_MODEL_OUTPUT', type: HookmdTypeError },
    { name: 'a NaN force', result: { energy: [1, 2], forces: Float64Array.from({ length: 15 }, (_, i) => (i === 7 ? Number.NaN : 0)) }, code: 'INVALID_MODEL_OUTPUT', type: HookmdRangeError },
    { name: 'an infinite energy', result: { energy: [1, Infinity], forces: new Float64Array(15) }, code: 'INVALID_MODEL_OUTPUT', type: HookmdRangeError },
    { name: 'missing stress when asked', result: { energy: [1, 2], forces: new Float64Array(15) }, code: 'INVALID_MODEL_OUTPUT', type: HookmdTypeError, stress: true },
    { name: 'a string in the forces', result: { energy: [1, 2], forces: [[0, 0, 0], [0, 'x', 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]] }, code: 'INVALID_MODEL_OUTPUT', type: HookmdRangeError },
    { name: 'no object', result: 42, code: 'INVALID_MODEL_OUTPUT', type: HookmdTypeError },
    { name: 'a promise', result: Promise.resolve({ energy: [0, 0] }), code: 'ASYNC_MODEL', type: HookmdTypeError },
  ])('rejects $name with $code and leaves the batch untouched', ({ result, code, type, stress }) => {
    const batch = twoSystems();
    batch.energy.set([7, 8]);
    const model = new JsModel(() => result as JsModelResult);
    const caught = codeOf(() => model.compute(batch, { stress: stress ?? false }));
    expect(caught.error).toBeInstanceOf(type);
    expect(caught.code).toBe(code);
    expect((caught.error as Error).message.startsWith('JsModel')).toBe(true);
    expect(Array.from(batch.energy)).toEqual([7, 8]);
  });

  // Issue 27, item 2: the shape is checked before anything is copied, so outputs that would exhaust memory
  // or the stack while being flattened are typed errors.
  it.each<{ name: string; forces: () => unknown; code: string; text: RegExp }>([
    { name: 'an array of length 2^31', forces: () => new Array(2 ** 31), code: 'LENGTH_MISMATCH', text: /more than 15 numbers \(an array of 2147483648 entries/ },
    { name: 'an array-like claiming 2^53 − 1 entries', forces: () => ({ length: Number.MAX_SAFE_INTEGER }), code: 'LENGTH_MISMATCH', text: /more than 15 numbers/ },
    { name: 'rows of which one has 2^31 entries', forces: () => [[0, 0, 0], new Array(2 ** 31)], code: 'LENGTH_MISMATCH', text: /an array of 2147483648 entries after 3/ },
    { name: 'an array that contains itself', forces: () => { const a: unknown[] = [0, 0, 0]; a.push(a); return a; }, code: 'INVALID_MODEL_OUTPUT', text: /forces contains itself/ },
    { name: 'rows that contain their parent', forces: () => { const a: unknown[][] = [[0, 0, 0]]; a[0].push(a); return a; }, code: 'INVALID_MODEL_OUTPUT', text: /forces contains itself/ },
    { name: 'arrays nested four deep', forces: () => [[[[0]]]], code: 'INVALID_MODEL_OUTPUT', text: /nests arrays more than 3 deep/ },
    { name: 'too many rows', forces: () => Array.from({ length: 6 }, () => [0, 0, 0]), code: 'LENGTH_MISMATCH', text: /more than 15 numbers/ },
  ])('rejects forces that are $name before flattening them', ({ forces, code, text }) => {
    const batch = twoSystems();
    const model = new JsModel(() => ({ energy: [1, 2], forces: forces() as JsModelResult['forces'] }));
    const caught = codeOf(() => model.compute(batch));
    expect(caught.code).toBe(code);
    expect((caught.error as Error).message).toMatch(text);
  });

  it('rejects a non-function callback', () => {
    expect(codeOf(() => new JsModel(42 as never)).code).toBe('INVALID_MODEL');
  });
});
