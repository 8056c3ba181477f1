// Issue 19, item 4: huge but valid extxyz input used to abort the process inside readline or the V8 heap.
// Lines and frames over their limits are now typed EXTXYZ_LIMIT errors. The limits are options, so these
// tests use small ones and never allocate more than a few kilobytes.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { DEFAULT_MAX_FRAME_ATOMS, DEFAULT_MAX_LINE_BYTES, readExtxyz, streamExtxyz } from '../../lib/io/index.js';
import type { System } from '../../lib/data/index.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frame = (comment: string): string => `2\n${comment}\nAr 0 0 0\nAr 0 0 3.8\n`;

async function streamAll(path: string, options: object): Promise<System[]> {
  const out: System[] = [];
  for await (const system of streamExtxyz(path, options)) out.push(system);
  return out;
}

describe('extxyz size limits (issue 19, item 4)', () => {
  it('has documented defaults', () => {
    expect(DEFAULT_MAX_LINE_BYTES).toBe(16 * 1024 * 1024);
    expect(DEFAULT_MAX_FRAME_ATOMS).toBe(10_000_000);
  });

  it('a comment line over maxLineBytes is EXTXYZ_LIMIT in readExtxyz (file and text) and streamExtxyz, after the good frames', async () => {
    const long = `note="${'x'.repeat(5000)}"`;
    const path = join(dir, 'long-comment.xyz');
    writeFileSync(path, frame('energy=-1') + frame(long));
    const expected = { code: 'EXTXYZ_LIMIT', details: expect.objectContaining({ line: 6, option: 'maxLineBytes', max: 1024 }) };
    expect(() => readExtxyz(path, { maxLineBytes: 1024 })).toThrow(expect.objectContaining(expected));
    expect(() => readExtxyz(path, { maxLineBytes: 1024 })).toThrow(/long-comment\.xyz:6: .*raise maxLineBytes if the file is valid/);
    expect(() => readExtxyz(frame('a=1') + frame(long), { maxLineBytes: 1024 })).toThrow(expect.objectContaining(expected));
    const seen: System[] = [];
    await expect((async () => { for await (const s of streamExtxyz(path, { maxLineBytes: 1024 })) seen.push(s); })()).rejects.toMatchObject(expected);
    expect(seen.map((s) => s.energy)).toEqual([-1]);
    // Within the limit, the same file reads.
    expect(readExtxyz(path, { maxLineBytes: 8192 })).toHaveLength(2);
    expect(await streamAll(path, { maxLineBytes: 8192 })).toHaveLength(2);
  });

  it('a frame declaring more atoms than maxFrameAtoms is EXTXYZ_LIMIT at its count line, before any atom is read', async () => {
    const path = join(dir, 'big-frame.xyz');
    writeFileSync(path, `${frame('a=1')}46000000\n\n`);
    const expected = { code: 'EXTXYZ_LIMIT', details: expect.objectContaining({ line: 5, option: 'maxFrameAtoms', max: 1000 }) };
    expect(() => readExtxyz(path, { maxFrameAtoms: 1000 })).toThrow(expect.objectContaining(expected));
    await expect(streamAll(path, { maxFrameAtoms: 1000 })).rejects.toMatchObject(expected);
    // The default is large enough for ordinary frames, and too small for 46M atoms.
    expect(() => readExtxyz(path)).toThrow(expect.objectContaining({ code: 'EXTXYZ_LIMIT' }));
  });

  it.runIf(existsSync('/dev/zero'))('/dev/zero (no newline, no end) is EXTXYZ_LIMIT, not a hang or a heap abort', async () => {
    expect(() => readExtxyz('/dev/zero', { maxLineBytes: 4096 })).toThrow(expect.objectContaining({ code: 'EXTXYZ_LIMIT', details: expect.objectContaining({ line: 1 }) }));
    await expect(streamAll('/dev/zero', { maxLineBytes: 4096 })).rejects.toMatchObject({ code: 'EXTXYZ_LIMIT' });
  });

  it('CRLF line ends and a missing final newline still read as before', async () => {
    const path = join(dir, 'crlf.xyz');
    writeFileSync(path, frame('energy=-2').replace(/\n/g, '\r\n').trimEnd());
    expect(readExtxyz(path).map((s) => s.energy)).toEqual([-2]);
    expect((await streamAll(path, {})).map((s) => s.energy)).toEqual([-2]);
  });

  it.each([0, -1, 1.5, '10', Infinity])('a limit of %s is INVALID_OPTIONS', (value) => {
    expect(() => readExtxyz(frame('a=1'), { maxLineBytes: value as number })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => readExtxyz(frame('a=1'), { maxFrameAtoms: value as number })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
