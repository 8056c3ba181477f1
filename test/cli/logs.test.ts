// `md` and `relax` logs and trajectories as LAMMPS thermo and ASE's MDLogger write them (docs/cli.md): row
// and frame 0 are the input (its positions, at rest, and their energy), then every multiple of the
// interval, and the last step always.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, repeat } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';
import { columnName } from '../../lib/dynamics/hooks/log-units.js';

const MODEL = 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5';
const dimers = [4.2, 3.6].map((d) => ({ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, d]] }));
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'dimers.xyz'), dimers);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function inputEnergies(): number[] {
  const batch = Batch.fromSystems(dimers);
  new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }).compute(batch);
  return Array.from(batch.read('energy'));
}

function csv(path: string): Array<Record<string, string>> {
  const [header, ...rows] = readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => line.split(','));
  // Keyed by column name: the header also names each unit (`temperature[K]`).
  return rows.map((cells) => Object.fromEntries(header.map((name, k) => [columnName(name), cells[k]])));
}

describe('md logs the temperature the thermostat holds', () => {
  it('md --ensemble nhc --temperature 40 on 32 Ar atoms logs a long-run mean of 40 K within three standard errors', async () => {
    await writeExtxyz(join(dir, 'crystal.xyz'), [repeat(bulk('Ar', 'fcc', { a: 5.3, cubic: true }), [2, 2, 2])]);
    const result = await runCli(['md', 'crystal.xyz', '--model', MODEL, '--ensemble', 'nhc', '--temperature', '40', '--tdamp', '250', '--dt', '5', '--steps', '60000',
      '--seed', '1', '--log', 'nhc.csv', '--log-every', '10', '--quiet'], { cwd: dir });
    expect(result.code).toBe(0);
    const samples = csv(join(dir, 'nhc.csv')).map((row) => Number(row.temperature));
    const kept = samples.slice(samples.length / 5);
    const size = Math.floor(kept.length / 20);
    const means = Array.from({ length: 20 }, (_, b) => kept.slice(b * size, (b + 1) * size).reduce((a, x) => a + x, 0) / size);
    const mean = means.reduce((a, x) => a + x, 0) / 20;
    const error = Math.sqrt(means.reduce((a, x) => a + (x - mean) ** 2, 0) / 19 / 20);
    // Counting 3N instead of the thermostat's 3N − 3 would read T/N = 1.25 K low.
    expect(3 * error).toBeLessThan(40 / 32);
    expect(Math.abs(mean - 40)).toBeLessThan(3 * error);
  });
});

describe('md and relax logs start at the input', () => {
  it('md --steps 250 --log-every 100 --traj-every 100 writes steps 0, 100, 200 and 250; step 0 is the input at rest', async () => {
    const result = await runCli(['md', 'dimers.xyz', '--model', MODEL, '--dt', '5', '--steps', '250', '--log', 'md.csv', '--log-every', '100', '--traj', 'md.xyz', '--traj-every', '100', '--quiet'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rows = csv(join(dir, 'md.csv'));
    expect(rows.map((row) => Number(row.step))).toEqual([0, 0, 100, 100, 200, 200, 250, 250]);
    const energies = inputEnergies();
    for (const row of rows.slice(0, 2)) {
      expect(Number(row.temperature)).toBe(0);
      expect(Number(row.energy)).toBeCloseTo(energies[Number(row.system)], 12);
    }
    const frames = readExtxyz(join(dir, 'md.xyz'));
    expect(frames.map((frame) => frame.info?.step)).toEqual([0, 0, 100, 100, 200, 200, 250, 250]);
    expect(frames.slice(0, 2).map((frame) => frame.positions)).toEqual(dimers.map((d) => d.positions));
  });

  it('relax --log starts each structure with its input energy and ends with its last step', async () => {
    const result = await runCli(['relax', 'dimers.xyz', '--model', MODEL, '--fmax', '1e-4', '--log', 'relax.csv', '--log-every', '1000', '--out', 'relaxed.xyz', '--quiet'], { cwd: dir });
    expect(result.code).toBe(0);
    const rows = csv(join(dir, 'relax.csv'));
    const energies = inputEnergies();
    const relaxed = readExtxyz(join(dir, 'relaxed.xyz'));
    for (const id of [0, 1]) {
      const own = rows.filter((row) => Number(row.systemId) === id);
      expect(Number(own[0].step)).toBe(0);
      expect(Number(own[0].energy)).toBeCloseTo(energies[id], 12);
      expect(Number(own.at(-1)?.energy)).toBeCloseTo(relaxed[id].energy as number, 12);
      expect(Number(own.at(-1)?.fmax)).toBeLessThanOrEqual(1e-4);
    }
  });
});
