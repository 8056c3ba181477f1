// Issue 39 item 23: a bad value of any kind is a typed error whose message shows it. Before, formatting the
// message itself threw an untyped TypeError for a prototype-less object, a Symbol or a BigInt (String(),
// template literals, JSON.stringify), and spelled out a 2³²−1-element sparse array until memory ran out.
import { describe, expect, it } from 'vitest';

import { showText, showValue } from '../../lib/describe-value.js';
import { every, wallClock } from '../../lib/hooks/index.js';
import { ExtxyzSink, readStructures } from '../../lib/io/index.js';

const HOSTILE: [string, unknown][] = [
  ['a prototype-less object', Object.create(null)],
  ['a Symbol', Symbol('s')],
  ['a BigInt', 10n],
  ['an object holding a BigInt', { value: 10n }],
  ['a 2³²−1-element sparse array', new Array(2 ** 32 - 1)],
  ['an object whose toString throws', { toString: () => { throw new Error('no'); } }],
];

describe('error messages show every value', () => {
  it.each(HOSTILE)('showValue and showText take %s', (_, value) => {
    expect(typeof showValue(value)).toBe('string');
    expect(typeof showText(value)).toBe('string');
    expect(showText(value).length).toBeLessThanOrEqual(1001);
  });

  it('keep what JSON.stringify and String give for ordinary values', () => {
    for (const value of ['text', 3.5, null, [1, 2], { a: 'b' }, true]) expect(showValue(value)).toBe(JSON.stringify(value));
    for (const value of ['text', 3.5, null, undefined, [1, 2], true, NaN]) expect(showText(value)).toBe(String(value));
    expect(showValue(new Array(2 ** 32 - 1))).toBe('"an array of 4294967295"');
    expect(showValue({ big: 2n })).toBe('{"big":"2n"}');
  });

  it.each(HOSTILE)('every, wallClock, ExtxyzSink and readStructures refuse %s with their typed errors', (_, value) => {
    expect(() => every(value as number)).toThrow(expect.objectContaining({ code: 'INVALID_TRIGGER' }));
    expect(() => wallClock(value as number)).toThrow(expect.objectContaining({ code: 'INVALID_TRIGGER' }));
    expect(() => new ExtxyzSink('out.xyz', { units: value as 'metal' })).toThrow(expect.objectContaining({ code: 'INVALID_UNITS' }));
    expect(() => readStructures('x.xyz', { format: value as 'extxyz' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
