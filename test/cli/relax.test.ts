// `hookmd relax` end to end, as a spawned process, on LJ13 clusters in lj units.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, repeat } from '../../lib/data/index.js';
import { readExtxyz, readZarr, writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { LJ13_MINIMUM } from '../dynamics/lj-systems.js';
import { LJ_MODEL, writeClusters } from './fixtures.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

let dir: string;
let input: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  input = await writeClusters(dir, 12);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function maxForce(forces: number[][]): number {
  return Math.max(...forces.map((f) => Math.hypot(...f)));
}

describe('hookmd relax', () => {
  it('relaxes every structure to the LJ13 minimum, writes them in input order, logs, and exits 0', async () => {
    const result = await runCli(['relax', input, '--units', 'lj', '--model', LJ_MODEL, '--fmax', '1e-4', '--max-atoms', '52', '--out', 'relaxed.xyz', '--log', 'relax.csv', '--log-every', '5', '--zarr', 'relaxed.zarr'], { cwd: dir });
    expect(result.stderr).not.toContain('hookmd:');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^relax: 12\/12 systems written, 12 converged, 0 unconverged, \d+ steps in [\d.]+ s → relaxed\.xyz, relaxed\.zarr, relax\.csv\n$/);
    const relaxed = readExtxyz(join(dir, 'relaxed.xyz'), { units: 'lj' });
    expect(relaxed.map((s) => s.info?.tag)).toEqual([...Array(12).keys()]);
    for (const system of relaxed) {
      expect(system.info).toMatchObject({ converged: true });
      expect(system.energy).toBeCloseTo(LJ13_MINIMUM, 3);
      expect(maxForce(system.forces as number[][])).toBeLessThanOrEqual(1e-4);
    }
    expect((await readZarr(join(dir, 'relaxed.zarr'))).map((s) => s.energy)).toEqual(relaxed.map((s) => s.energy));
    const [header, ...rows] = readFileSync(join(dir, 'relax.csv'), 'utf8').trimEnd().split('\n');
    expect(header).toBe('step,time[τ],system,systemId,status,temperature[ε/k_B],energy[ε],kineticEnergy[ε],totalEnergy[ε],fmax[ε/σ]');
    expect(rows.length).toBeGreaterThan(12);
    // Each structure: the state it enters the batch with, every multiple of 5 steps, and the state it leaves with.
    for (const id of relaxed.keys()) {
      const steps = rows.filter((row) => Number(row.split(',')[3]) === id).map((row) => Number(row.split(',')[0]));
      expect(steps.length).toBeGreaterThan(2);
      expect(steps).toEqual([...steps].sort((a, b) => a - b));
      expect(new Set(steps.slice(1, -1).map((step) => step % 5))).toEqual(new Set([0]));
    }
  });

  it('takes --model-config, morse and gd, and prints a --json summary', async () => {
    writeFileSync(join(dir, 'morse.json'), JSON.stringify({ type: 'morse', D: 1, alpha: 6, r0: 1.12, cutoff: 2.5 }));
    const result = await runCli(['relax', input, '--units', 'lj', '--model-config', 'morse.json', '--optimizer', 'gd', '--step-size', '0.002', '--fmax', '0.05', '--out', 'gd.xyz', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ command: 'relax', systems: 12, processed: 12, interrupted: null, outputs: ['gd.xyz'] });
    expect(summary.converged).toBe(12);
    expect(readExtxyz(join(dir, 'gd.xyz'), { units: 'lj' })).toHaveLength(12);
  });

  it('flags structures that reach --max-steps as unconverged', async () => {
    const result = await runCli(['relax', input, '--units', 'lj', '--model', LJ_MODEL, '--fmax', '1e-9', '--max-steps', '20', '--refill-every', '5', '--out', 'short.xyz', '--quiet'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const out = readExtxyz(join(dir, 'short.xyz'), { units: 'lj' });
    expect(out.every((s) => s.info?.converged === false && s.info?.steps === 20)).toBe(true);
  });

  it('prints plain progress lines when stderr is not a terminal', async () => {
    const result = await runCli(['relax', input, '--units', 'lj', '--model', LJ_MODEL, '--out', 'p.xyz', '--progress-interval', '0'], { cwd: dir });
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line).toMatch(/^relax: \d+\/12 systems \(\d+%\), step \d+, \d+ steps\/s, \d+ converged, elapsed \S+, ETA \S+(, fmax \d\.\d\de[+-]\d+)?$/);
    expect(lines.some((line) => /, fmax \d\.\d\de[+-]\d+$/.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/^relax: 12\/12 systems \(100%\)/);
    expect(result.stderr).not.toContain('\r');
  });

  it('writes the real stress of relaxed periodic crystals (not zeros), and none for clusters', async () => {
    const a = (4 / 0.8442) ** (1 / 3);
    const crystal = repeat(bulk('Ar', 'fcc', { a, cubic: true }), [2, 2, 2]);
    const strained = { ...crystal, cell: (crystal.cell as number[][]).map((row) => row.map((x) => 1.04 * x)), positions: (crystal.positions as number[][]).map((p) => p.map((x) => 1.04 * x)) };
    await writeExtxyz(join(dir, 'strained.xyz'), [strained, perturbedCluster()], { units: 'lj' });
    const result = await runCli(['relax', 'strained.xyz', '--units', 'lj', '--model', LJ_MODEL, '--fmax', '1e-3', '--out', 'strained-relaxed.xyz'], { cwd: dir });
    expect(result.code).toBe(0);
    const [periodic, cluster] = readExtxyz(join(dir, 'strained-relaxed.xyz'), { units: 'lj' });
    // The reference: the same model on the written positions (a stretched crystal is under tension).
    const batch = Batch.fromSystems([periodic], { units: 'lj' });
    new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }).compute(batch, { stress: true });
    const expected = Array.from(batch.read('stress'));
    const written = (periodic.stress as number[][]).flat();
    expect(Math.abs(expected[0])).toBeGreaterThan(1e-3);
    written.forEach((value, k) => expect(value).toBeCloseTo(expected[k], 10));
    expect(cluster.stress).toBeUndefined();
  });
});

function perturbedCluster() {
  return { symbols: ['Ar', 'Ar', 'Ar'], positions: [[0, 0, 0], [1.15, 0, 0], [0.5, 1.0, 0.1]] };
}
