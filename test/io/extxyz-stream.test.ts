// streamExtxyz reads incrementally (the same frames as readExtxyz, yielded before the end of the file
// is read) and writeExtxyz is atomic (a failure leaves neither a partial file nor a temporary one).
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { formatExtxyz, readExtxyz, streamExtxyz, writeExtxyz } from '../../lib/io/index.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cluster(k: number): System {
  const n = 1 + (k % 5);
  return {
    symbols: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'Ar' : 'Ne')),
    positions: Array.from({ length: n }, (_, i) => [i * 3.1 + k * 1e-3, Math.sin(k + i), Math.cos(k * i)]),
    energy: -0.01 * k,
    forces: Array.from({ length: n }, (_, i) => [i, -k, 0.5]),
    info: { frame: k, label: `frame ${k}` },
  };
}

async function collect(iterable: AsyncIterable<System>): Promise<System[]> {
  const out: System[] = [];
  for await (const system of iterable) out.push(system);
  return out;
}

describe('streamExtxyz', () => {
  it('yields the same systems as readExtxyz', async () => {
    const path = join(dir, 'many.xyz');
    writeFileSync(path, Array.from({ length: 300 }, (_, k) => formatExtxyz(cluster(k))).join(''));
    const streamed = await collect(streamExtxyz(path));
    expect(streamed).toHaveLength(300);
    expect(streamed).toEqual(readExtxyz(path));
  });

  it('yields 20,000 frames one by one: every good frame comes out before the bad last one is reached', async () => {
    const path = join(dir, 'huge.xyz');
    const frame = (k: number): string => `2\nProperties=species:S:1:pos:R:3 i=${k}\nAr 0 0 ${k}\nAr 0 0 ${k + 3.8}\n`;
    const frames = Array.from({ length: 20_000 }, (_, k) => frame(k));
    // The last frame is cut short: reading the whole file first would fail before yielding anything.
    frames[19_999] = '2\nProperties=species:S:1:pos:R:3\nAr 0 0 0\n';
    writeFileSync(path, frames.join(''));
    let count = 0;
    let failure: unknown;
    try {
      for await (const system of streamExtxyz(path)) {
        expect(system.info?.i).toBe(count);
        count++;
      }
    } catch (error) {
      failure = error;
    }
    expect(count).toBe(19_999);
    expect(failure).toMatchObject({ code: 'EXTXYZ_PARSE', details: { line: 4 * 20_000 } });
  });

  it('yields a frame while the writer has not written the next one (a FIFO)', async () => {
    const fifo = join(dir, 'pipe.xyz');
    execFileSync('mkfifo', [fifo]);
    const writer = createWriteStream(fifo);
    const iterator = streamExtxyz(fifo)[Symbol.asyncIterator]();
    writer.write(formatExtxyz(cluster(1)));
    const first = await iterator.next();
    expect(first.value?.info).toEqual({ frame: 1, label: 'frame 1' });
    writer.end(formatExtxyz(cluster(2)));
    expect((await iterator.next()).value?.info?.frame).toBe(2);
    expect((await iterator.next()).done).toBe(true);
  });

  it('closes the file when the loop breaks early', async () => {
    const path = join(dir, 'many.xyz');
    const open = (): number => readdirSync('/proc/self/fd').length;
    const before = open();
    for await (const system of streamExtxyz(path)) {
      expect(system.info?.frame).toBe(0);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(open()).toBe(before);
  });

  it('throws typed errors for a missing file and bad arguments', async () => {
    await expect(collect(streamExtxyz(join(dir, 'missing.xyz')))).rejects.toMatchObject({ code: 'READ_FAILED' });
    expect(() => streamExtxyz('')).toThrow(expect.objectContaining({ code: 'INVALID_PATH' }));
    expect(() => streamExtxyz(join(dir, 'many.xyz'), { units: 'si' as 'lj' })).toThrow(expect.objectContaining({ code: 'INVALID_UNITS' }));
  });
});

describe('writeExtxyz is atomic', () => {
  const leftovers = (folder: string): string[] => readdirSync(folder).filter((name) => name.endsWith('.tmp'));

  it('writes from an iterable or an async iterable, replacing the old file whole', async () => {
    const path = join(dir, 'out.xyz');
    writeFileSync(path, 'old content that is longer than nothing\n'.repeat(100));
    await writeExtxyz(path, [cluster(1), cluster(2)]);
    expect(readExtxyz(path)).toEqual(readExtxyz(formatExtxyz(cluster(1)) + formatExtxyz(cluster(2))));
    const copy = join(dir, 'copy.xyz');
    await writeExtxyz(copy, streamExtxyz(join(dir, 'many.xyz')));
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(join(dir, 'many.xyz'), 'utf8'));
    expect(leftovers(dir)).toEqual([]);
  });

  it('leaves no partial or temporary file when the rename fails (the target is a directory)', async () => {
    const folder = join(dir, 'rename');
    mkdirSync(join(folder, 'target.xyz'), { recursive: true });
    writeFileSync(join(folder, 'target.xyz', 'keep'), 'x');
    const failure = writeExtxyz(join(folder, 'target.xyz'), [cluster(1)]);
    await expect(failure).rejects.toMatchObject({ code: 'WRITE_FAILED', details: { path: join(folder, 'target.xyz') } });
    await expect(failure).rejects.toHaveProperty('cause.code');
    expect(readdirSync(folder)).toEqual(['target.xyz']);
    expect(readdirSync(join(folder, 'target.xyz'))).toEqual(['keep']);
  });

  it('keeps the previous file when a system in the middle is invalid', async () => {
    const path = join(dir, 'kept.xyz');
    writeFileSync(path, formatExtxyz(cluster(7)));
    function* systems(): Generator<System> {
      yield cluster(1);
      yield { symbols: ['Ar'], positions: [[0, NaN, 0]] };
    }
    await expect(writeExtxyz(path, systems())).rejects.toMatchObject({ code: 'INVALID_POSITIONS' });
    expect(readExtxyz(path)[0].info).toEqual({ frame: 7, label: 'frame 7' });
    expect(leftovers(dir)).toEqual([]);
  });

  it('fails with WRITE_FAILED when the directory does not exist', async () => {
    await expect(writeExtxyz(join(dir, 'no', 'such', 'dir.xyz'), [cluster(1)])).rejects.toMatchObject({ code: 'WRITE_FAILED' });
  });
});
