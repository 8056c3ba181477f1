// `hookmd phonons --out` end to end: the q points of --path are ASE's bandpath ones (paths2kpts) on the same
// cell, the frequencies in the file are the library's phonons() at those q points, the DOS its dos(), and
// `hookmd view --export` of the file plots exactly those numbers; flags that do not fit exit 2 before any
// force call.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bulk } from '../../lib/data/index.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { loadViewData } from '../../lib/view/index.js';
import type { PhononBandsFile } from '../../lib/view/phonon-bands.js';
import { phonons } from '../../lib/workflows/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { reportData } from '../view/fixtures.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const LJ = 'lj:epsilon=0.0104,sigma=3.4,cutoff=10.2,shift=true';
const argon = bulk('Ar', 'fcc', { a: 5.26 });
// fcc's special points (ASE's sc_special_points['fcc']), with a jump from K to U.
const POINTS = { G: [0, 0, 0], X: [0.5, 0, 0.5], W: [0.5, 0.25, 0.75], K: [0.375, 0.375, 0.75], L: [0.5, 0.5, 0.5], U: [0.625, 0.25, 0.625] };
const PATH = [['G', 'X', 'W', 'K', 'G', 'L'], ['U', 'X']];
const FLAG = PATH.map((segment) => segment.map((label) => `${label}=${POINTS[label as keyof typeof POINTS].join(',')}`).join(';')).join('|');
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'ar.xyz'), [argon]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hookmd phonons --out', () => {
  it('writes the bands along --path and the DOS; hookmd view --export plots those numbers', async () => {
    const run = await runCli(['phonons', 'ar.xyz', '--model', LJ, '--supercell', '7', '--path', FLAG, '--npoints', '60', '--dos', '4', '--out', 'bands.json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const file = JSON.parse(readFileSync(join(dir, 'bands.json'), 'utf8')) as PhononBandsFile;
    expect(file).toMatchObject({ format: 'hookmd-phonons', version: 1, unit: 'THz', supercell: [7, 7, 7] });
    expect(file.labels.map((l) => l.label)).toEqual(['G', 'X', 'W', 'K', 'G', 'L|U', 'X']);
    expect(file.q).toHaveLength(60);
    const result = await phonons(new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 10.2, shift: true }), argon, { supercell: 7 });
    file.q.forEach((q, k) => expect(file.frequencies[k]).toEqual(Array.from(result.frequencies(q)).map((f) => expect.closeTo(f, 10))));
    const dos = result.dos({ kpts: [4, 4, 4] });
    expect(file.dos?.frequencies).toEqual(Array.from(dos.frequencies).map((f) => expect.closeTo(f, 10)));
    expect(file.dos?.dos).toEqual(Array.from(dos.dos).map((f) => expect.closeTo(f, 10)));

    const view = await runCli(['view', 'bands.json', '--export', 'report.html'], { cwd: dir });
    expect(view.code, view.stderr).toBe(0);
    const [bands, density] = reportData(join(dir, 'report.html')).plots;
    expect(bands?.series).toHaveLength(3);
    // Each branch is the file's frequencies at their distances, broken (a null) at the jump from L to U.
    const jump = file.labels.find((l) => l.label === 'L|U')?.distance;
    bands?.series.forEach((branch, b) => {
      const drawn = branch.x.flatMap((x, k) => (branch.y[k] === null ? [] : [[x, branch.y[k]]]));
      expect(drawn).toEqual(file.distance.map((x, k) => [x, file.frequencies[k]?.[b]]));
      expect(branch.x.filter((x, k) => branch.y[k] === null)).toEqual([jump]);
    });
    expect(bands?.ticks).toEqual(file.labels.map(({ label, distance }) => ({ x: distance, label })));
    expect(density?.series[0]?.y).toEqual(file.dos?.dos);
  });

  it.skipIf(aseSkipReason !== '')(`places the q points as ASE's bandpath does ${aseSkipReason}`, async () => {
    const cell = argon.cell as number[][];
    const out = join(dir, 'ase-path.json');
    const run = await runCli(['phonons', 'ar.xyz', '--model', LJ, '--supercell', '7', '--path', FLAG, '--npoints', '83', '--out', 'ase-path.json', '--unit', 'meV'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as PhononBandsFile;
    const ase = runAse<{ q: number[][]; x: number[]; X: number[] }>(`
import json, sys
import numpy as np
from ase.dft.kpoints import paths2kpts
d = json.load(sys.stdin)
q, x, X = paths2kpts([[d['points'][l] for l in seg] for seg in d['path']], np.array(d['cell']), npoints=83)
print(json.dumps({'q': q.tolist(), 'x': x.tolist(), 'X': X.tolist()}))
`, { points: POINTS, path: PATH, cell });
    expect(file.q).toHaveLength(ase.q.length);
    file.q.forEach((q, k) => expect(q).toEqual((ase.q[k] as number[]).map((v) => expect.closeTo(v, 12))));
    expect(file.distance).toEqual(ase.x.map((v) => expect.closeTo(v, 12)));
    // ASE's X lists each special point's position, the jump's two as one.
    expect(file.labels.map((l) => l.distance)).toEqual([...new Set(ase.X)].map((v) => expect.closeTo(v, 12)));
    expect(file.unit).toBe('meV');
  });

  it.each([
    [['--out', 'x.json'], /give --path/],
    [['--path', 'G=0,0,0;X=0.5,0,0.5'], /give --out FILE/],
    [['--dos', '4'], /give --out FILE/],
    [['--out', 'x.json', '--path', 'G=0,0,0'], /two points at least/],
    [['--out', 'x.json', '--path', 'G=0,0;X=0.5,0,0.5'], /expected labelled q points/],
    [['--out', 'missing/x.json', '--path', 'G=0,0,0;X=0.5,0,0.5'], /directory missing does not exist/],
  ])('%j exits 2 with the reason', async (args, message) => {
    const run = await runCli(['phonons', 'ar.xyz', '--model', LJ, '--supercell', '7', ...args], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('hookmd view refuses a JSON file that is no phonon file, and a phonon file with a broken field, naming it', async () => {
    writeFileSync(join(dir, 'other.json'), '{"energies": [1, 2]}');
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ format: 'hookmd-phonons', version: 1, unit: 'THz', supercell: [1, 1, 1], q: [[0, 0, 0]], distance: [], labels: [], frequencies: [[0, 0, 0]] }));
    writeFileSync(join(dir, 'garbled.json'), '{"format": ');
    await expect(loadViewData([join(dir, 'other.json')])).rejects.toMatchObject({ code: 'VIEW_BAD_FILE', message: expect.stringMatching(/no JSON file hookmd view reads/) });
    await expect(loadViewData([join(dir, 'broken.json')])).rejects.toMatchObject({ code: 'VIEW_BAD_FILE', message: expect.stringMatching(/distance must be 1 numbers/) });
    await expect(loadViewData([join(dir, 'garbled.json')])).rejects.toMatchObject({ code: 'VIEW_BAD_FILE' });
    const run = await runCli(['view', 'broken.json', '--export', 'r.html'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/broken\.json is not a phonon file/);
  });
});
