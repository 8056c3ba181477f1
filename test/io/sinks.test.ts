// Sink semantics: HostMemorySink capacity and drain, ExtxyzSink buffering, ordering, and what a failed
// write leaves behind (whole frames only, nothing dropped).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { ExtxyzSink, formatExtxyz, HostMemorySink, openSink, readExtxyz, ZarrSink } from '../../lib/io/index.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-sinks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const atom = (k: number): System => ({ symbols: ['Ar'], positions: [[k, 0, 0]], energy: -k, info: { k } });
const ks = (systems: System[]): unknown[] => systems.map((s) => s.info?.k);

describe('HostMemorySink', () => {
  it('stores, reads, drains and counts', () => {
    const sink = new HostMemorySink({ capacity: 3 });
    sink.write([atom(0), atom(1)]);
    expect(ks(sink.read())).toEqual([0, 1]);
    expect(() => sink.write([atom(2), atom(3)])).toThrow(expect.objectContaining({ code: 'SINK_FULL', details: expect.objectContaining({ held: 2, capacity: 3 }) }));
    expect(sink.read()).toHaveLength(2);
    expect(ks(sink.drain())).toEqual([0, 1]);
    expect(sink.read()).toEqual([]);
    sink.write([atom(2), atom(3), atom(4)]);
    expect(sink.count).toBe(5);
    sink.close();
    expect(() => sink.write([atom(5)])).toThrow(expect.objectContaining({ code: 'SINK_CLOSED' }));
    expect(ks(sink.read())).toEqual([2, 3, 4]);
  });

  it('validates its input and options', () => {
    const sink = new HostMemorySink();
    expect(sink.capacity).toBe(Infinity);
    expect(() => sink.write(atom(0) as never)).toThrow(expect.objectContaining({ code: 'INVALID_SYSTEMS' }));
    expect(() => sink.write([atom(0), 7 as never])).toThrow(expect.objectContaining({ code: 'INVALID_SYSTEM', details: expect.objectContaining({ index: 1 }) }));
    expect(sink.count).toBe(0);
    for (const capacity of [0, 1.5, -1, NaN]) expect(() => new HostMemorySink({ capacity })).toThrow(expect.objectContaining({ code: 'INVALID_CAPACITY' }));
  });
});

describe('ExtxyzSink', () => {
  it('appends whole buffers of `capacity` frames, drains on demand, and flushes on close', async () => {
    const path = join(dir, 'buffered.xyz');
    const sink = new ExtxyzSink(path, { capacity: 3 });
    await sink.write([atom(0), atom(1)]);
    expect(existsSync(path)).toBe(false);
    expect(sink.pending).toBe(2);
    await sink.write([atom(2)]);
    expect(ks(readExtxyz(path))).toEqual([0, 1, 2]);
    await sink.write([atom(3)]);
    expect(ks(await sink.drain())).toEqual([3]);
    expect(ks(readExtxyz(path))).toEqual([0, 1, 2, 3]);
    await sink.write([atom(4)]);
    await sink.close();
    await sink.close();
    expect(readFileSync(path, 'utf8')).toBe([0, 1, 2, 3, 4].map((k) => formatExtxyz(atom(k))).join(''));
    expect(sink.count).toBe(5);
    await expect(sink.write([atom(5)])).rejects.toMatchObject({ code: 'SINK_CLOSED' });
  });

  it('keeps call order when writes are not awaited, validates at write, and can append', async () => {
    const path = join(dir, 'ordered.xyz');
    writeFileSync(path, formatExtxyz(atom(-1)));
    const sink = new ExtxyzSink(path, { capacity: 1, append: true });
    const writes = [0, 1, 2, 3, 4].map((k) => sink.write([atom(k)]));
    await expect(sink.write([{ symbols: ['Ar'], positions: [[0, Infinity, 0]] }])).rejects.toMatchObject({ code: 'INVALID_POSITIONS' });
    await Promise.all(writes);
    await sink.close();
    expect(ks(readExtxyz(path))).toEqual([-1, 0, 1, 2, 3, 4]);
    expect(sink.count).toBe(5);
  });

  it('creates an empty file when closed without writes', async () => {
    const path = join(dir, 'empty.xyz');
    writeFileSync(path, 'stale');
    await new ExtxyzSink(path).close();
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('a failed write throws SINK_WRITE_FAILED, leaves earlier frames intact and keeps the failed ones for close()', async () => {
    const path = join(dir, 'unwritable.xyz');
    const sink = new ExtxyzSink(path, { capacity: 1 });
    await sink.write([atom(0)]);
    await sink.write([atom(1)]);
    // The file becomes unwritable: its path is now a directory.
    renameSync(path, `${path}.before`);
    mkdirSync(path);
    const failure = sink.write([atom(2)]);
    await expect(failure).rejects.toMatchObject({ code: 'SINK_WRITE_FAILED', details: { path, unwritten: 1 } });
    await expect(failure).rejects.toThrow(/^ExtxyzSink: write failed: /);
    await expect(failure).rejects.toHaveProperty('cause.code', 'EISDIR');
    expect(ks(readExtxyz(`${path}.before`))).toEqual([0, 1]);
    expect(sink.pending).toBe(1);
    await expect(sink.drain()).rejects.toMatchObject({ code: 'SINK_WRITE_FAILED' });
    rmSync(path, { recursive: true });
    await sink.close();
    expect(ks(readExtxyz(path))).toEqual([2]);
  });

  it('validates its options', () => {
    expect(() => new ExtxyzSink('')).toThrow(expect.objectContaining({ code: 'INVALID_PATH' }));
    expect(() => new ExtxyzSink(join(dir, 'x.xyz'), { capacity: Infinity })).toThrow(expect.objectContaining({ code: 'INVALID_CAPACITY' }));
    expect(() => new ExtxyzSink(join(dir, 'x.xyz'), { units: 'cgs' as 'lj' })).toThrow(expect.objectContaining({ code: 'INVALID_UNITS' }));
  });
});

describe('openSink', () => {
  it('picks the sink from the extension', async () => {
    expect(openSink(join(dir, 'a.xyz'))).toBeInstanceOf(ExtxyzSink);
    expect(openSink(join(dir, 'a.extxyz'))).toBeInstanceOf(ExtxyzSink);
    expect(openSink(join(dir, 'a.zarr'), { capacity: 8 })).toMatchObject({ capacity: 8 });
    expect(openSink(join(dir, 'b.zarr'))).toBeInstanceOf(ZarrSink);
    expect(() => openSink(join(dir, 'a.csv'))).toThrow(expect.objectContaining({ code: 'UNKNOWN_SINK_FORMAT' }));
  });
});

describe('sink writes of sparse arrays (issue 39, item 23)', () => {
  it('a 2³² − 1 sparse array is refused at once; a hole is the index of a missing system', async () => {
    const sparse: System[] = [];
    sparse.length = 2 ** 32 - 1;
    const started = performance.now();
    await expect(Promise.resolve().then(() => new HostMemorySink().write(sparse))).rejects.toMatchObject({ code: 'INVALID_SYSTEMS', message: expect.stringMatching(/4294967295 systems in one write/) });
    expect(performance.now() - started).toBeLessThan(1000);
    const system: System = { symbols: ['Ar'], positions: [[0, 0, 0]] };
    const holed = [system, , system] as System[];
    await expect(Promise.resolve().then(() => new HostMemorySink().write(holed))).rejects.toMatchObject({ code: 'INVALID_SYSTEM', details: { index: 1 } });
  });
});
