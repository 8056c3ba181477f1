// `hookmd neb` end to end on a vacancy hop in a Lennard-Jones argon crystal: the energies and barrier it prints
// (as text and as --json) are those of the library's NEB on the same end points and options, --out holds the
// relaxed band, a multi-frame file is a path, and bad input exits 2 before any force call.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bulk, repeat, type System } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz, writePoscar } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { NEB } from '../../lib/workflows/index.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const LJ = 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5,shift=true';
const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true });
const crystal = repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), 2);
const rowsOf = (system: System): number[][] => system.positions as number[][];
const initial: System = { atomicNumbers: (crystal.atomicNumbers as number[]).slice(1), positions: rowsOf(crystal).slice(1), cell: crystal.cell, pbc: true };
const final: System = { ...initial, positions: rowsOf(initial).map((r, i) => (i === 0 ? [0, 0, 0] : r)) };
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'initial.xyz'), [initial]);
  await writeExtxyz(join(dir, 'final.xyz'), [final]);
  await writeExtxyz(join(dir, 'ends.xyz'), [initial, final]);
  await writeExtxyz(join(dir, 'three.xyz'), [initial, initial, final]);
  // The upper half of the crystal fixed by selective dynamics, as a slab's lower layers would be.
  const fixed = { fixed: rowsOf(initial).map((r) => r[2]! >= 5.26) };
  await writePoscar(join(dir, 'POSCAR-initial'), { ...initial, info: fixed });
  await writePoscar(join(dir, 'POSCAR-final'), { ...final, info: fixed });
  await writeExtxyz(join(dir, 'mixed.xyz'), [initial, { ...final, atomicNumbers: (final.atomicNumbers as number[]).slice(1), positions: rowsOf(final).slice(1) }]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hookmd neb', () => {
  it('prints the energies and barrier of the library’s NEB; --json and --out agree', async () => {
    const expected = await new NEB({ model, images: [initial, final], interpolate: 'idpp', numImages: 5, climb: true }).run({ fmax: 0.01 });
    const text = await runCli(['neb', 'initial.xyz', 'final.xyz', '--model', LJ, '--interpolate', 'idpp', '--images', '5', '--climb', '--fmax', '0.01', '--out', 'band.xyz'], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`barrier ${expected.barrier.toFixed(6)} eV`);
    expect(text.stdout).toContain(`saddle at image ${expected.paths[0]?.saddleIndex}; converged in ${expected.steps} steps`);
    expect(text.stderr).toMatch(/neb: .*largest NEB force/);
    const band = readExtxyz(join(dir, 'band.xyz'));
    expect(band).toHaveLength(5);
    expect(band.map((image) => image.energy)).toEqual(expected.path.map((e) => expect.closeTo(e, 9)));
    const json = await runCli(['neb', 'initial.xyz', 'final.xyz', '--model', LJ, '--interpolate', 'idpp', '--images', '5', '--climb', '--fmax', '0.01', '--json', '--quiet'], { cwd: dir });
    expect(json.stderr).toBe('');
    const report = JSON.parse(json.stdout) as { energies: number[]; barrier: number; converged: boolean; unit: string };
    expect(report.unit).toBe('eV');
    expect(report.converged).toBe(true);
    expect(report.energies).toEqual(expected.path);
    expect(report.barrier).toBe(expected.barrier);
  });

  it('one file of two frames gives the end points; of more frames, the path as it is', async () => {
    const expected = await new NEB({ model, images: [initial, final], interpolate: 'linear', numImages: 7, method: 'improvedtangent' }).run({ fmax: 0.05 });
    const ends = await runCli(['neb', 'ends.xyz', '--model', LJ, '--method', 'improvedtangent', '--json', '--quiet'], { cwd: dir });
    expect((JSON.parse(ends.stdout) as { energies: number[] }).energies).toEqual(expected.path);
    await writeExtxyz(join(dir, 'path.xyz'), expected.paths[0]?.images ?? []);
    const path = await runCli(['neb', 'path.xyz', '--model', LJ, '--method', 'improvedtangent', '--json', '--quiet'], { cwd: dir });
    const again = JSON.parse(path.stdout) as { energies: number[]; steps: number };
    // The relaxed band is already converged: no step is taken, and its energies are those written.
    expect(again.steps).toBe(0);
    again.energies.forEach((e, i) => expect(e).toBeCloseTo(expected.path[i] as number, 9));
  });

  it.each(['fire2', 'lbfgs'] as const)('--optimizer %s moves the band as the library’s NEB with that optimizer', async (optimizer) => {
    const expected = await new NEB({ model, images: [initial, final], interpolate: 'linear', numImages: 5, climb: true, optimizer }).run({ fmax: 0.01 });
    const run = await runCli(['neb', 'initial.xyz', 'final.xyz', '--model', LJ, '--images', '5', '--climb', '--fmax', '0.01', '--optimizer', optimizer, '--json', '--quiet'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { energies: number[]; steps: number };
    expect(report.energies).toEqual(expected.path);
    expect(report.steps).toBe(expected.steps);
  });

  it('keeps the atoms a POSCAR’s selective dynamics fixes where they are', async () => {
    const run = await runCli(['neb', 'POSCAR-initial', 'POSCAR-final', '--model', LJ, '--images', '5', '--climb', '--fmax', '0.01', '--out', 'held.xyz', '--quiet'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const band = readExtxyz(join(dir, 'held.xyz'));
    const start = rowsOf(initial);
    let moved = 0;
    for (const image of band) {
      rowsOf(image).forEach((r, a) => {
        const d = Math.hypot(r[0]! - start[a]![0]!, r[1]! - start[a]![1]!, r[2]! - start[a]![2]!);
        // POSCAR and extxyz keep positions to their printed digits, so "where they are" is to 1e-6 Å.
        if (start[a]![2]! >= 5.26) expect(d, `image atom ${a}`).toBeLessThan(1e-6);
        else moved = Math.max(moved, d);
      });
    }
    expect(moved).toBeGreaterThan(0.1);
  });

  it.each([
    [['initial.xyz'], /holds one structure/],
    [['mixed.xyz'], /image 1 has 30 atoms, image 0 has 31/],
    [['initial.xyz', 'final.xyz', '--images', '2'], /at least 3 images/],
    [['three.xyz', '--images', '5'], /--images needs end points/],
  ])('%j exits 2 with the reason', async (args, message) => {
    const run = await runCli(['neb', ...args, '--model', LJ, '--quiet'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
