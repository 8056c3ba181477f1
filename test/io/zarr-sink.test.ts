// ZarrSink and readZarr: a ragged Zarr v3 store written chunk by chunk through zarrita reads back equal,
// has the documented layout, and survives a failed append (data before metadata, atoms_ptr last).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { chemicalSymbol, createRng } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { readZarr, ZarrSink } from '../../lib/io/index.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-zarr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A system in readZarr's form, with fields present or absent by `k`. */
function system(k: number): System {
  const rng = createRng(k + 1);
  const n = 1 + (k % 12);
  const rows = (scale: number): number[][] => Array.from({ length: n }, () => [0, 1, 2].map(() => scale * (rng.uniform() - 0.5)));
  const numbers = Array.from({ length: n }, (_, i) => 1 + ((k + 7 * i) % 54));
  const periodic = k % 3 === 0;
  const out: System = {
    symbols: numbers.map(chemicalSymbol),
    atomicNumbers: numbers,
    positions: rows(10),
    cell: periodic ? [[10 + k, 0, 0], [0.5, 11, 0], [0, 0.25, 12]] : [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
    pbc: periodic ? [true, true, k % 2 === 0] : [false, false, false],
    info: { systemId: 1000 + k, label: `s${k}`, ...(k % 4 === 0 ? { converged: k % 8 === 0, steps: 10 * k } : {}), ...(k % 5 === 0 ? { tags: [k, 'x'] } : {}) },
  };
  if (k % 2 === 0) out.masses = Array.from({ length: n }, () => 1 + 50 * rng.uniform());
  if (k % 3 !== 1) out.velocities = rows(0.1);
  if (k % 4 !== 3) {
    out.energy = -rng.uniform() * 100;
    out.forces = rows(1);
  }
  if (k % 6 === 0) out.stress = [[1e-3 * k, 2, 3], [2, 5, 6], [3, 6, -9]];
  return out;
}

const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('ZarrSink', () => {
  it('writes 100 systems of mixed sizes in several writes and reads them back equal', async () => {
    const path = join(dir, 'mixed.zarr');
    const systems = Array.from({ length: 100 }, (_, k) => system(k));
    const sink = new ZarrSink(path, { capacity: 16, chunkAtoms: 32, chunkSystems: 8 });
    let start = 0;
    for (const size of [7, 13, 1, 30, 49]) {
      await sink.write(systems.slice(start, start + size));
      start += size;
    }
    expect(sink.count).toBe(100);
    await sink.close();
    expect(await readZarr(path)).toEqual(systems);
  });

  it('has the documented ragged layout', async () => {
    const path = join(dir, 'mixed.zarr');
    const atoms = Array.from({ length: 100 }, (_, k) => 1 + (k % 12)).reduce((a, b) => a + b, 0);
    expect(json(join(path, 'zarr.json'))).toMatchObject({ zarr_format: 3, node_type: 'group', attributes: { hookmd: { name: 'hookmd-ragged', version: 1, chunkAtoms: 32, chunkSystems: 8 } } });
    const shapes: Record<string, [number[], string]> = {
      'meta/atoms_ptr': [[101], 'int64'],
      'meta/system_id': [[100], 'int64'],
      'meta/converged': [[100], 'int8'],
      'meta/steps': [[100], 'int64'],
      'meta/info_ptr': [[101], 'int64'],
      'core/positions': [[atoms, 3], 'float64'],
      'core/atomic_numbers': [[atoms], 'int32'],
      'core/masses': [[atoms], 'float64'],
      'core/velocities': [[atoms, 3], 'float64'],
      'core/forces': [[atoms, 3], 'float64'],
      'core/energy': [[100], 'float64'],
      'core/cell': [[100, 3, 3], 'float64'],
      'core/pbc': [[100, 3], 'uint8'],
      'core/stress': [[100, 3, 3], 'float64'],
    };
    for (const [name, [shape, dtype]] of Object.entries(shapes)) {
      const meta = json(join(path, name, 'zarr.json'));
      expect(meta, name).toMatchObject({ node_type: 'array', shape, data_type: dtype });
      expect((meta.chunk_grid as { configuration: { chunk_shape: number[] } }).configuration.chunk_shape[0], name).toBe(name.startsWith('core/') && !['core/energy', 'core/cell', 'core/pbc', 'core/stress'].includes(name) ? 32 : 8);
    }
    expect(json(join(path, 'core/energy/zarr.json')).fill_value).toBe('NaN');
    // Every chunk is gzip after little-endian bytes, the codecs zarr-python reads (docs/formats.md).
    expect(json(join(path, 'core/positions/zarr.json')).codecs).toEqual([
      { name: 'bytes', configuration: { endian: 'little' } },
      { name: 'gzip', configuration: { level: 5 } },
    ]);
    // The first atom of system 2 sits at offset 1 + 2 (systems 0 and 1 have 1 and 2 atoms): little-endian int64.
    const pointers = new BigInt64Array(new Uint8Array(gunzipSync(readFileSync(join(path, 'meta/atoms_ptr/c/0')))).buffer);
    expect(Array.from(pointers.slice(0, 4), Number)).toEqual([0, 1, 3, 6]);
  });

  it('compresses its chunks: a short 64-atom trajectory takes a fraction of the raw store, and reads back the same', async () => {
    const frames = Array.from({ length: 20 }, (_, k): System => ({
      symbols: Array.from({ length: 64 }, () => 'Ar'),
      positions: Array.from({ length: 64 }, (_, i) => [(i % 4) * 3.8 + 0.01 * k, ((i >> 2) % 4) * 3.8, (i >> 4) * 3.8]),
      cell: [[15.2, 0, 0], [0, 15.2, 0], [0, 0, 15.2]],
      pbc: [true, true, true],
      energy: -5 - 0.001 * k,
    }));
    const size = (path: string): number =>
      readdirSync(path, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
    const stores = await Promise.all(
      (['gzip', 'none'] as const).map(async (compression) => {
        const path = join(dir, `trajectory-${compression}.zarr`);
        const sink = new ZarrSink(path, { compression });
        await sink.write(frames);
        await sink.close();
        return path;
      }),
    );
    const [gzip, raw] = stores as [string, string];
    // 20 frames hold 30 KB of positions; raw chunks pad every array to its 65,536-row chunk.
    expect(size(gzip)).toBeLessThan(size(raw) / 20);
    expect(await readZarr(gzip)).toEqual(await readZarr(raw));
  });

  it('a failed append throws SINK_WRITE_FAILED and leaves the store as it was; close() retries', async () => {
    const path = join(dir, 'broken.zarr');
    const systems = Array.from({ length: 12 }, (_, k) => system(2 * k));
    const sink = new ZarrSink(path, { capacity: 4, chunkAtoms: 8, chunkSystems: 2 });
    await sink.write(systems.slice(0, 4));
    // The first append holds 16 atoms (chunks 0 and 1). core/forces is written after atomic_numbers,
    // positions, masses and velocities: a folder where its next chunk goes makes the next append fail
    // half-way through its data.
    mkdirSync(join(path, 'core/forces/c/2/0'), { recursive: true });
    const failure = sink.write(systems.slice(4, 8));
    await expect(failure).rejects.toMatchObject({ code: 'SINK_WRITE_FAILED', details: { path, unwritten: 4 } });
    expect(existsSync(join(path, 'core/positions/c/2/0'))).toBe(true);
    expect((readdirSync(path, { recursive: true }) as string[]).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(await readZarr(path)).toEqual(systems.slice(0, 4));
    rmSync(join(path, 'core/forces/c/2/0'), { recursive: true });
    await sink.write(systems.slice(8, 10));
    await sink.close();
    expect(await readZarr(path)).toEqual(systems.slice(0, 10));
  });

  // A process killed while it created the store (test/cli/crash-consistency.test.ts) left the root group
  // without meta/atoms_ptr: a store every reader opened and none could read (READ_FAILED).
  it('a creation that fails half-way leaves no root group, and the next write creates the whole store', async () => {
    const path = join(dir, 'half-made.zarr');
    const systems = Array.from({ length: 4 }, (_, k) => system(k + 1));
    const sink = new ZarrSink(path, { capacity: 2 });
    // meta/atoms_ptr's metadata is the last array a creation writes: a folder in its place fails it there.
    mkdirSync(join(path, 'meta/atoms_ptr/zarr.json'), { recursive: true });
    await expect(sink.write(systems.slice(0, 2))).rejects.toMatchObject({ code: 'SINK_WRITE_FAILED' });
    expect(existsSync(join(path, 'zarr.json'))).toBe(false);
    rmSync(join(path, 'meta/atoms_ptr/zarr.json'), { recursive: true });
    await sink.write(systems.slice(2, 4));
    await sink.close();
    expect(await readZarr(path)).toEqual(systems);
  });

  it('writes an empty store on close without writes, and refuses a used path', async () => {
    const path = join(dir, 'empty.zarr');
    await new ZarrSink(path).close();
    expect(await readZarr(path)).toEqual([]);
    expect(() => new ZarrSink(path)).toThrow(expect.objectContaining({ code: 'SINK_PATH_EXISTS' }));
    mkdirSync(join(dir, 'fresh.zarr'));
    expect(new ZarrSink(join(dir, 'fresh.zarr')).path).toBe(join(dir, 'fresh.zarr'));
  });

  it('validates systems at write and options at construction', async () => {
    const sink = new ZarrSink(join(dir, 'invalid.zarr'));
    await expect(sink.write([{ symbols: ['Ar'], positions: [[0, 0]] }])).rejects.toMatchObject({ code: 'LENGTH_MISMATCH' });
    await expect(sink.write([{ symbols: ['Ar'], positions: [[0, 0, 0]], info: { f: () => 1 } }])).rejects.toMatchObject({ code: 'INVALID_INFO' });
    expect(sink.count).toBe(0);
    expect(() => new ZarrSink(join(dir, 'c.zarr'), { chunkAtoms: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_CHUNKS' }));
    expect(() => new ZarrSink(join(dir, 'z.zarr'), { compression: 'zstd' as never })).toThrow(/ZarrSink: compression must be 'gzip' or 'none', got "zstd"/);
    await expect(readZarr(join(dir, 'nothing.zarr'))).rejects.toMatchObject({ code: 'READ_FAILED' });
  });
});
