// indexExtxyz, what --resume and merge rely on: cut a file of whole frames at every byte, as a kill -9 in
// the middle of an append can, and the index must hold exactly the frames that lie whole before the cut,
// with the rest reported as torn; the frames' bytes are the frames ASE-compatible readers parse.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { indexExtxyz } from '../../lib/io/extxyz/frame-index.js';
import { formatExtxyz, readExtxyz } from '../../lib/io/index.js';

let dir: string;
const frames = [
  formatExtxyz({ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 3.8]], info: { systemId: 4, note: 'a b' } }),
  formatExtxyz({ symbols: ['Cu'], positions: [[1, 2, 3]], cell: [5, 5, 5], pbc: true, info: { systemId: 0 } }),
  formatExtxyz({ symbols: ['H', 'H', 'O'], positions: [[0, 0, 0], [0.9, 0, 0], [0, 0.9, 0]], info: { systemId: 7, inputSystems: 10 } }),
];
const text = frames.join('');
const ends = frames.map((_, k) => Buffer.byteLength(frames.slice(0, k + 1).join('')));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookmd-index-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('indexExtxyz', () => {
  it('finds every frame, its bytes and the requested comment keys', () => {
    const path = join(dir, 'whole.xyz');
    writeFileSync(path, text);
    const index = indexExtxyz(path, ['systemId', 'inputSystems']);
    expect(index.torn).toBe(0);
    expect(index.complete).toBe(Buffer.byteLength(text));
    expect(index.frames.map((f) => f.info)).toEqual([{ systemId: 4 }, { systemId: 0 }, { systemId: 7, inputSystems: 10 }]);
    expect(index.frames.map((f) => f.line)).toEqual([1, 5, 8]);
    for (const [k, frame] of index.frames.entries()) {
      const bytes = Buffer.from(text).subarray(frame.start, frame.end).toString();
      expect(bytes).toBe(frames[k]);
      expect(readExtxyz(bytes)[0].symbols).toEqual(readExtxyz(frames[k])[0].symbols);
    }
  });

  it('a file cut at any byte holds the whole frames before the cut; the rest is torn', () => {
    const bytes = Buffer.from(text);
    const path = join(dir, 'cut.xyz');
    for (let cut = 0; cut <= bytes.length; cut++) {
      writeFileSync(path, bytes.subarray(0, cut));
      const index = indexExtxyz(path, ['systemId']);
      const whole = ends.filter((end) => end <= cut).length;
      expect(index.frames.length, `cut at ${cut}`).toBe(whole);
      expect(index.complete, `cut at ${cut}`).toBe(whole === 0 ? 0 : ends[whole - 1]);
      expect(index.torn, `cut at ${cut}`).toBe(cut - index.complete);
    }
  });

  it('an input whose last line has no newline is whole when asked; a malformed frame before the end is EXTXYZ_PARSE', () => {
    const path = join(dir, 'input.xyz');
    writeFileSync(path, text.slice(0, -1));
    expect(indexExtxyz(path, []).frames).toHaveLength(2);
    expect(indexExtxyz(path, [], { unterminatedLastLine: true }).frames).toHaveLength(3);
    writeFileSync(path, `${frames[0]}\nnot a count\n${frames[1]}`);
    expect(() => indexExtxyz(path, [])).toThrow(expect.objectContaining({ code: 'EXTXYZ_PARSE', message: expect.stringContaining(':6: expected an atom count') }));
  });
});
