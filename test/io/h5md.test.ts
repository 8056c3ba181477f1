// H5MD 1.1: what H5mdSink writes readH5md reads back and h5py reads as H5MD (groups, step/time/value,
// box edges and boundary, units); an H5MD file h5py writes readH5md reads; hostile files are typed errors.
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { H5mdSink, readH5md } from '../../lib/io/index.js';

const dir = mkdtempSync(join(tmpdir(), 'hookmd-h5md-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A python3 that can `import h5py` (pip install h5py, or Debian's python3-h5py), or undefined. */
const h5pyPython = ['python3', '/usr/bin/python3'].find((python) => spawnSync(python, ['-c', 'import h5py'], { stdio: 'ignore' }).status === 0);
const h5pySkip = h5pyPython === undefined ? 'skipped: no python3 with h5py (pip install h5py or apt-get install python3-h5py)' : '';

function python<T>(script: string, input: unknown): T {
  const output = execFileSync(h5pyPython as string, ['-c', script], { input: JSON.stringify(input), encoding: 'utf8' });
  return JSON.parse(output) as T;
}

// 1 eV in kJ/mol (CODATA 2018's e·N_A).
const KJ_PER_MOL_PER_EV = 1.602176634e-19 * 6.02214076e23 / 1e3;
/** A python3 that can `import MDAnalysis` (Debian's python3-mdanalysis), or undefined. */
const mdaPython = ['python3', '/usr/bin/python3'].find((python) => spawnSync(python, ['-c', 'import MDAnalysis'], { stdio: 'ignore' }).status === 0);
const mdaSkip = mdaPython === undefined ? 'skipped: no python3 with MDAnalysis (apt-get install python3-mdanalysis)' : '';

const cell = [[5.2, 0, 0], [0.7, 4.9, 0], [-0.4, 0.3, 6.1]];
const frames: System[] = [0, 1, 2].map((k) => ({
  symbols: ['Cu', 'Al', 'Cu'],
  positions: [[0.1 + k, 0.2, 0.3], [2.5, 2.4 + k, 3.1], [4.9, 0.3, 5.5]],
  velocities: [[0.01 * k, -0.002, 0.003], [0, 0.004, 0], [-0.001, 0, 0.02]],
  cell: cell.map((row) => row.map((v) => v * (1 + 0.01 * k))),
  pbc: [true, true, false],
  ...(k === 1 ? {} : { energy: -3.5 - k, forces: [[0.1, 0.2, -0.3], [0, 0, 0.5], [-0.1, -0.2, -0.2 + k]] }),
  ...(k === 2 ? { stress: [[0.01, 0.002, 0], [0.002, 0.02, 0], [0, 0, 0.03]] } : {}),
  info: { step: 10 * k, time: 20 * k },
}));

describe('H5mdSink and readH5md', () => {
  it('reads back what it wrote; results only where valid', async () => {
    const path = join(dir, 'md.h5md');
    const sink = new H5mdSink(path, { capacity: 2 });
    await sink.write(frames);
    await sink.close();
    const back = await readH5md(path);
    expect(back).toHaveLength(3);
    back.forEach((system, k) => {
      const source = frames[k] as System;
      expect(Array.from(system.atomicNumbers ?? [])).toEqual([29, 13, 29]);
      expect(system.positions).toEqual(source.positions);
      // Velocities and forces go through MDAnalysis's units (Å/ps, kJ/(mol·Å)) and back: to the last bits.
      (system.velocities as number[][]).flat().forEach((v, i) => expect(v).toBeCloseTo((source.velocities as number[][]).flat()[i] as number, 14));
      expect(system.cell).toEqual(source.cell);
      expect(system.pbc).toEqual([true, true, false]);
      expect(system.energy).toBe(source.energy);
      if (source.forces === undefined) expect(system.forces).toBeUndefined();
      else (system.forces as number[][]).flat().forEach((f, i) => expect(f).toBeCloseTo((source.forces as number[][]).flat()[i] as number, 14));
      expect(system.stress).toEqual(source.stress);
      expect(system.info).toEqual({ step: 10 * k, time: 20 * k });
    });
    const empty = join(dir, 'empty.h5md');
    await new H5mdSink(empty).close();
    await expect(readH5md(empty)).rejects.toMatchObject({ code: 'H5MD_PARSE' });
  });

  it('refuses a frame of another system (an H5MD particle group holds one)', async () => {
    const sink = new H5mdSink(join(dir, 'two.h5md'));
    await sink.write([frames[0] as System]);
    await expect(sink.write([{ symbols: ['H'], positions: [[0, 0, 0]] }])).rejects.toMatchObject({ code: 'H5MD_SHAPE' });
  });

  it.skipIf(h5pySkip !== '')(`is H5MD 1.1 as h5py reads it ${h5pySkip}`, async () => {
    const path = join(dir, 'h5py.h5md');
    const sink = new H5mdSink(path);
    await sink.write(frames);
    await sink.close();
    const seen = python<Record<string, unknown>>(`
import h5py, json, sys
d = json.load(sys.stdin)
with h5py.File(d['path'], 'r') as f:
    p = f['particles/all']
    print(json.dumps({
        'version': f['h5md'].attrs['version'].tolist(),
        'creator': f['h5md/creator'].attrs['name'] if isinstance(f['h5md/creator'].attrs['name'], str) else f['h5md/creator'].attrs['name'].decode(),
        'shape': list(p['position/value'].shape), 'step': p['position/step'][()].tolist(), 'time': p['position/time'][()].tolist(),
        'position': p['position/value'][()].tolist(), 'velocity': p['velocity/value'][()].tolist(),
        'forceStep': p['force/step'][()].tolist(), 'force': [None if v != v else v for v in p['force/value'][()].ravel().tolist()], 'edges': p['box/edges/value'][()].tolist(),
        'velocityUnit': p['velocity/value'].attrs['unit'] if isinstance(p['velocity/value'].attrs['unit'], str) else p['velocity/value'].attrs['unit'].decode(),
        'forceUnit': p['force/value'].attrs['unit'] if isinstance(p['force/value'].attrs['unit'], str) else p['force/value'].attrs['unit'].decode(),
        'boundary': [b if isinstance(b, str) else b.decode() for b in p['box'].attrs['boundary']], 'dimension': int(p['box'].attrs['dimension']),
        'species': p['species'][()].tolist(), 'energy': [None if v != v else v for v in f['observables/potential_energy/value'][()].tolist()],
        'unit': p['position/value'].attrs['unit'] if isinstance(p['position/value'].attrs['unit'], str) else p['position/value'].attrs['unit'].decode()}))
`, { path });
    expect(seen).toMatchObject({
      version: [1, 1], creator: 'hookmd', shape: [3, 3, 3], step: [0, 10, 20], time: [0, 20, 40], forceStep: [0, 10, 20],
      boundary: ['periodic', 'periodic', 'none'], dimension: 3, species: [29, 13, 29], energy: [-3.5, null, -5.5], unit: 'Angstrom',
      velocityUnit: 'Angstrom ps-1', forceUnit: 'kJ mol-1 Angstrom-1',
    });
    expect(seen.position).toEqual(frames.map((f) => f.positions));
    // Every element one row per frame (frame 1 has no forces: NaN), velocities in Å/ps and forces in kJ/(mol·Å).
    (seen.velocity as number[][][]).flat(2).forEach((v, k) => expect(v).toBeCloseTo(1000 * (frames.map((f) => f.velocities as number[][]).flat(2)[k] as number), 10));
    const force = seen.force as Array<number | null>;
    expect(force.slice(9, 18)).toEqual(Array(9).fill(null));
    [0, 2].forEach((k) => (frames[k].forces as number[][]).flat().forEach((f, i) => expect(force[9 * k + i] as number).toBeCloseTo(f * KJ_PER_MOL_PER_EV, 9)));
    expect(seen.edges).toEqual(frames.map((f) => f.cell));
  });

  it.skipIf(mdaSkip !== '')(`is what MDAnalysis's H5MD reader reads, in its units ${mdaSkip}`, async () => {
    const path = join(dir, 'mda.h5md');
    const sink = new H5mdSink(path);
    await sink.write(frames);
    await sink.close();
    const output = execFileSync(mdaPython as string, ['-W', 'ignore', '-c', `
import json, sys
from MDAnalysis.coordinates.H5MD import H5MDReader
r = H5MDReader(sys.argv[1])
out = {'frames': r.n_frames, 'units': r.units, 'steps': []}
for ts in r:
    out['steps'].append({'positions': ts.positions.tolist(), 'velocities': ts.velocities.tolist(),
        'forces': [None if v != v else v for v in ts.forces.ravel().tolist()], 'dimensions': ts.dimensions.tolist(),
        'energy': None if ts.data['potential_energy'] != ts.data['potential_energy'] else float(ts.data['potential_energy']), 'time': ts.time})
print(json.dumps(out))
`, path], { encoding: 'utf8' });
    const seen = JSON.parse(output) as { frames: number; units: Record<string, string>; steps: Array<{ positions: number[][]; velocities: number[][]; forces: Array<number | null>; dimensions: number[]; energy: number | null; time: number }> };
    expect(seen.frames).toBe(3);
    expect(seen.units).toEqual({ time: 'fs', length: 'Angstrom', velocity: 'Angstrom/ps', force: 'kJ/(mol*Angstrom)' });
    seen.steps.forEach((ts, k) => {
      const frame = frames[k] as System;
      // MDAnalysis keeps float32 coordinates: 1e-6 relative.
      (frame.positions as number[][]).flat().forEach((x, i) => expect(ts.positions.flat()[i]).toBeCloseTo(x, 5));
      (frame.velocities as number[][]).flat().forEach((v, i) => expect(ts.velocities.flat()[i]).toBeCloseTo(1000 * v, 4));
      if (frame.forces === undefined) expect(ts.forces).toEqual(Array(9).fill(null));
      else (frame.forces as number[][]).flat().forEach((f, i) => expect(ts.forces[i] as number).toBeCloseTo(f * KJ_PER_MOL_PER_EV, 4));
      expect(ts.energy).toBe(frame.energy ?? null);
      // MDAnalysis's time is in ps: 20 fs per frame.
      expect(ts.time).toBeCloseTo(0.02 * k, 12);
      // dimensions: the lengths of the three lattice vectors, then the angles.
      const rowsOf = (frame.cell as number[][]);
      rowsOf.forEach((row, r) => expect(ts.dimensions[r]).toBeCloseTo(Math.hypot(...row), 4));
    });
    // And readH5md reads the same file back in metal units, frame 1 without forces or energy.
    const back = await readH5md(path);
    expect(back[1].forces).toBeUndefined();
    expect(back[1].energy).toBeUndefined();
    (back[0].velocities as number[][]).flat().forEach((v, i) => expect(v).toBeCloseTo((frames[0].velocities as number[][]).flat()[i] as number, 12));
    (back[2].forces as number[][]).flat().forEach((f, i) => expect(f).toBeCloseTo((frames[2].forces as number[][]).flat()[i] as number, 12));
  });

  it.skipIf(h5pySkip !== '')('reads an H5MD file h5py writes (rectangular edges, fixed box)', async () => {
    const path = join(dir, 'other.h5');
    python<null>(`
import h5py, json, sys, numpy as np
d = json.load(sys.stdin)
with h5py.File(d['path'], 'w') as f:
    f.create_group('h5md').attrs['version'] = np.array([1, 1])
    p = f.create_group('particles/water')
    b = p.create_group('box'); b.attrs['dimension'] = 3; b.attrs['boundary'] = np.array([b'periodic'] * 3)
    b['edges'] = np.array([10.0, 11.0, 12.0])
    p['species'] = np.array([8, 1, 1])
    g = p.create_group('position'); g['step'] = np.array([0, 100]); g['time'] = np.array([0.0, 0.05])
    g['time'].attrs['unit'] = 'ps'
    g['value'] = np.arange(18, dtype=float).reshape(2, 3, 3) / 100
    g['value'].attrs['unit'] = 'nm'
    v = p.create_group('velocity'); v['step'] = np.array([0, 100]); v['value'] = np.ones((2, 3, 3)); v['value'].attrs['unit'] = 'nm ps-1'
    fo = p.create_group('force'); fo['step'] = np.array([100]); fo['value'] = np.ones((1, 3, 3)) * 6.02214076e23 * 1.602176634e-19 / 1e3 * 10; fo['value'].attrs['unit'] = 'kJ mol-1 nm-1'
    bad = f.create_group('particles/bad'); bad['species'] = np.array([1])
    bg = bad.create_group('position'); bg['step'] = np.array([0]); bg['value'] = np.zeros((1, 1, 3)); bg['value'].attrs['unit'] = 'furlong'
print('null')
`, { path });
    const back = await readH5md(path, { group: 'water' });
    expect(back).toHaveLength(2);
    expect(back[1]?.cell).toEqual([[10, 0, 0], [0, 11, 0], [0, 0, 12]]);
    expect(back[1]?.pbc).toEqual([true, true, true]);
    // Units converted: ps → fs, nm → Å, nm/ps → Å/fs, kJ/(mol·nm) → eV/Å.
    expect(back[1]?.info).toEqual({ step: 100, time: 50 });
    const near = (a: unknown, b: number[][]): void => (a as number[][]).flat().forEach((v, k) => expect(v).toBeCloseTo(b.flat()[k] as number, 12));
    near(back[1]?.positions, [[0.9, 1, 1.1], [1.2, 1.3, 1.4], [1.5, 1.6, 1.7]]);
    near(back[0]?.velocities, [[0.01, 0.01, 0.01], [0.01, 0.01, 0.01], [0.01, 0.01, 0.01]]);
    expect(back[0]?.forces).toBeUndefined();
    near(back[1]?.forces, [[1, 1, 1], [1, 1, 1], [1, 1, 1]]);
    await expect(readH5md(path, { group: 'bad' })).rejects.toThrow(/unit 'furlong'/);
    await expect(readH5md(path, { group: 'nothere' })).rejects.toMatchObject({ code: 'H5MD_PARSE' });
  });

  it.skipIf(h5pySkip !== '')('refuses a dataset larger than the file and mismatched shapes, naming the dataset', async () => {
    const huge = join(dir, 'huge.h5');
    const mismatch = join(dir, 'mismatch.h5');
    python<null>(`
import h5py, json, sys, numpy as np
d = json.load(sys.stdin)
for path, n in [(d['huge'], None), (d['mismatch'], 2)]:
    with h5py.File(path, 'w') as f:
        f.create_group('h5md')
        p = f.create_group('particles/all')
        p['species'] = np.array([1, 1, 1][: (n or 3)])
        g = p.create_group('position'); g['step'] = np.array([0])
        if n is None: g.create_dataset('value', shape=(10**9, 3, 3), chunks=(1, 3, 3), dtype='f8')
        else: g['value'] = np.zeros((1, 3, 3))
print('null')
`, { huge, mismatch });
    await expect(readH5md(huge)).rejects.toMatchObject({ code: 'H5MD_PARSE', details: { dataset: '/particles/all/position' } });
    await expect(readH5md(huge)).rejects.toThrow(/more than a file of/);
    await expect(readH5md(mismatch)).rejects.toMatchObject({ code: 'H5MD_PARSE', details: { dataset: '/particles/all/species', frame: 0 } });
  });

  it('refuses truncated, corrupt and foreign files with typed errors, without a crash', async () => {
    const path = join(dir, 'cut.h5md');
    const sink = new H5mdSink(path);
    await sink.write(frames);
    await sink.close();
    const bytes = readFileSync(path);
    for (const length of [0, 8, 100, 1000, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const cut = join(dir, `cut-${length}.h5md`);
      writeFileSync(cut, bytes.subarray(0, length));
      const error = await readH5md(cut).then(() => undefined, (e: unknown) => e);
      if (error !== undefined) expect(['READ_FAILED', 'H5MD_PARSE']).toContain((error as { code: string }).code);
    }
    const text = join(dir, 'text.h5md');
    writeFileSync(text, 'ITEM: TIMESTEP\n0\n');
    await expect(readH5md(text)).rejects.toMatchObject({ code: 'READ_FAILED' });
    await expect(readH5md('/dev/zero')).rejects.toMatchObject({ code: 'READ_FAILED' });
  });
});
