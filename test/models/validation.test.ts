import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../../lib/errors.js';
import { LennardJones, Morse } from '../../lib/models/index.js';

function errorOf(fn: () => unknown): { error: unknown; code: string; message: string } {
  try {
    fn();
  } catch (error) {
    const coded = error as { code: string; message: string };
    return { error, code: coded.code, message: coded.message };
  }
  throw new Error('expected a throw');
}

describe('LennardJones and Morse reject bad parameters with typed errors', () => {
  it.each([
    { options: { epsilon: 1, sigma: 0, cutoff: 2.5 }, code: 'INVALID_SIGMA', type: HookmdRangeError, words: ['LennardJones', 'sigma', '0'] },
    { options: { epsilon: 1, sigma: -1, cutoff: 2.5 }, code: 'INVALID_SIGMA', type: HookmdRangeError, words: ['sigma', '-1'] },
    { options: { epsilon: 1, sigma: 1, cutoff: 0 }, code: 'INVALID_CUTOFF', type: HookmdRangeError, words: ['cutoff', '0'] },
    { options: { epsilon: 1, sigma: 1, cutoff: -2 }, code: 'INVALID_CUTOFF', type: HookmdRangeError, words: ['cutoff', '-2'] },
    { options: { epsilon: -0.5, sigma: 1, cutoff: 2.5 }, code: 'INVALID_EPSILON', type: HookmdRangeError, words: ['epsilon', '-0.5'] },
    { options: { epsilon: Number.NaN, sigma: 1, cutoff: 2.5 }, code: 'INVALID_PARAMETER', type: HookmdRangeError, words: ['epsilon', 'NaN'] },
    { options: { epsilon: 1, sigma: Infinity, cutoff: 2.5 }, code: 'INVALID_PARAMETER', type: HookmdRangeError, words: ['sigma', 'Infinity'] },
    { options: { epsilon: 1, sigma: 1, cutoff: 2.5, skin: -0.1 }, code: 'INVALID_SKIN', type: HookmdRangeError, words: ['skin'] },
    { options: { epsilon: 1, sigma: 1, cutoff: 2.5, switchOn: 2.5 }, code: 'INVALID_SWITCH', type: HookmdRangeError, words: ['switchOn', '2.5'] },
    { options: { epsilon: 1, sigma: 1, cutoff: 2.5, switchOn: 2, shift: true }, code: 'INVALID_PARAMETER', type: HookmdError, words: ['shift', 'switchOn'] },
    { options: { epsilon: '1', sigma: 1, cutoff: 2.5 }, code: 'INVALID_PARAMETER', type: HookmdTypeError, words: ['epsilon'] },
    { options: { sigma: 1, cutoff: 2.5 }, code: 'INVALID_PARAMETER', type: HookmdTypeError, words: ['epsilon', 'undefined'] },
    { options: { pairs: { 'Ar-Xx': { epsilon: 1, sigma: 1 } }, cutoff: 2.5 }, code: 'INVALID_PAIR', type: HookmdError, words: ['Ar-Xx', 'Xx'] },
    { options: { pairs: { 'Ar-Kr-Xe': { epsilon: 1, sigma: 1 } }, cutoff: 2.5 }, code: 'INVALID_PAIR', type: HookmdError, words: ['Ar-Kr-Xe'] },
    { options: { pairs: { 'Ar-Kr': { epsilon: 1, sigma: 1 }, 'Kr-Ar': { epsilon: 1, sigma: 1 } }, cutoff: 2.5 }, code: 'DUPLICATE_PAIR', type: HookmdError, words: ['Ar-Kr'] },
    { options: { pairs: { '18-18': { epsilon: 1, sigma: 1 } } }, code: 'INVALID_PARAMETER', type: HookmdTypeError, words: ['cutoff'] },
    { options: { pairs: { 'Ar-Ar': { epsilon: 1, sigma: -2, cutoff: 3 } } }, code: 'INVALID_SIGMA', type: HookmdRangeError, words: ["pairs['Ar-Ar'].sigma", '-2'] },
    { options: { epsilon: 1, sigma: 1, cutoff: 2.5, pairs: { 'Ar-Ar': { epsilon: 1, sigma: 1 } } }, code: 'INVALID_PARAMETER', type: HookmdError, words: ['epsilon', 'pairs'] },
    { options: { epsilon: 1, sigma: 1, cutoff: 2.5, switchon: 2 }, code: 'UNKNOWN_OPTION', type: HookmdTypeError, words: ['switchon', 'switchOn'] },
    { options: { cutoff: 2.5, pairs: { 'Ar-Ar': { epsilon: 1, sigm: 1 } } }, code: 'UNKNOWN_OPTION', type: HookmdTypeError, words: ["pairs['Ar-Ar'].sigm"] },
  ])('LennardJones($options) → $code', ({ options, code, type, words }) => {
    const { error, message } = errorOf(() => new LennardJones(options as never));
    expect(error).toBeInstanceOf(type);
    expect((error as { code: string }).code).toBe(code);
    expect(message.startsWith('LennardJones')).toBe(true);
    for (const word of words) expect(message).toContain(word);
  });

  it.each([
    { options: { D: 0, alpha: 1, r0: 1, cutoff: 3 }, field: 'D' },
    { options: { D: 1, alpha: -1, r0: 1, cutoff: 3 }, field: 'alpha' },
    { options: { D: 1, alpha: 1, r0: 0, cutoff: 3 }, field: 'r0' },
    { options: { D: 1, alpha: Number.NaN, r0: 1, cutoff: 3 }, field: 'alpha' },
  ])('Morse($options) → INVALID_PARAMETER naming $field', ({ options, field }) => {
    const { error, code, message } = errorOf(() => new Morse(options));
    expect(error).toBeInstanceOf(HookmdRangeError);
    expect(code).toBe('INVALID_PARAMETER');
    expect(message).toMatch(new RegExp(`^Morse: ${field} must be`));
  });

  it('reports a species pair without parameters as MISSING_PAIR, only when one system holds both species', () => {
    const model = new LennardJones({ cutoff: 3, pairs: { 'Ar-Ar': { epsilon: 1, sigma: 1 }, 'Kr-Kr': { epsilon: 1.2, sigma: 1.1 } } });
    const separate = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 1.1]] }, { symbols: ['Kr', 'Kr'], positions: [[0, 0, 0], [0, 0, 1.2]] }], { units: 'lj' });
    model.compute(separate);
    expect(separate.energy[1]).not.toBe(0);
    const mixed = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 1.1]] }, { symbols: ['Ar', 'Kr'], positions: [[0, 0, 0], [0, 0, 1.2]] }], { units: 'lj' });
    const missing = errorOf(() => model.compute(mixed));
    expect(missing.error).toBeInstanceOf(HookmdError);
    expect(missing.code).toBe('MISSING_PAIR');
    expect(missing.message).toMatch(/^LennardJones: no parameters for the species pair Ar-Kr .* system 1/);
    const unknown = Batch.fromSystems([{ symbols: ['Xe'], positions: [[0, 0, 0]] }], { units: 'lj' });
    expect(errorOf(() => model.compute(unknown)).message).toContain('Xe-Xe');
  });

  it('rejects bad compute arguments', () => {
    const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    expect(errorOf(() => model.compute({} as never)).code).toBe('INVALID_BATCH');
    const batch = Batch.fromSystems([{ symbols: ['Ar'], positions: [[0, 0, 0]] }], { units: 'lj' });
    expect(errorOf(() => model.compute(batch, { stress: 'yes' } as never)).code).toBe('INVALID_OPTIONS');
  });

  it('refuses a NaN position that reached the batch after validation, natively, with a typed error', () => {
    const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    const batch = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 1.1]] }], { units: 'lj' });
    batch.positions[4] = Number.NaN;
    const { error, code } = errorOf(() => model.compute(batch));
    expect(error).toBeInstanceOf(HookmdError);
    expect(code).toBe('INVALID_POSITIONS');
  });
});
