// Issue 39, item 23: public functions given nothing, null or a value of the wrong kind where they need an
// argument throw a typed error naming it, and messages about odd values (Symbols, BigInts, objects without
// a prototype) format them rather than throwing a TypeError of their own; `--model lj:…,__proto__=1` is a
// key the schema refuses, as `constructor=1` is.
import { describe, expect, it } from 'vitest';

import { parseModelFlag } from '../../lib/cli/model.js';
import { Batch } from '../../lib/data/index.js';
import { exportReport, loadViewData } from '../../lib/view/index.js';

const batch = (): Batch => Batch.fromSystems([{ symbols: ['Ar'], positions: [[0, 0, 0]] }], { units: 'lj' });
const typed = (code: string, message: RegExp): unknown => expect.objectContaining({ code, message: expect.stringMatching(message) });

describe('missing or wrong arguments are typed errors', () => {
  it.each([undefined, null, 3, Symbol('s'), 2n, Object.create(null)])('Batch#select and toSystems of %s', (value) => {
    expect(() => batch().select(value as never)).toThrow(typed('INVALID_INDEX', /^Batch\.select: indices must be an array of system indices/));
    if (value !== undefined) expect(() => batch().toSystems(value as never)).toThrow(typed('INVALID_INDEX', /^Batch\.toSystems: indices must be an array/));
  });

  it('Batch#markResults needs its fields object', () => {
    expect(() => batch().markResults(undefined as never)).toThrow(typed('INVALID_OPTIONS', /^Batch\.markResults: fields must be an object such as \{ energy: true/));
    expect(() => batch().markResults(null as never)).toThrow(typed('INVALID_OPTIONS', /got null$/));
  });

  it('loadViewData and exportReport need an array of paths, and exportReport its output', async () => {
    await expect(loadViewData(undefined as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^loadViewData: paths must be an array of file paths/) });
    await expect(exportReport(undefined as never, 'x.html')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^exportReport: paths/) });
    await expect(exportReport([Symbol('p')] as never, 'x.html')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/got an array$/) });
    await expect(exportReport([], undefined as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^exportReport: out must be the path/) });
  });
});

describe('--model keys named after Object.prototype members', () => {
  it.each(['__proto__', 'constructor', 'toString'])('lj:…,%s=1 is refused by the schema', (key) => {
    expect(() => parseModelFlag(`lj:epsilon=1,sigma=1,cutoff=3,${key}=1`)).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', message: expect.stringContaining(key) }));
  });
});
