// `hookmd md` end to end, as a spawned process: ensembles, trajectory, log, final frames, velocities.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readExtxyz } from '../../lib/io/index.js';
import { LJ_MODEL, writeClusters } from './fixtures.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

let dir: string;
let input: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  input = await writeClusters(dir, 3);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = (): string[] => ['md', input, '--units', 'lj', '--model', LJ_MODEL, '--quiet'];

describe('hookmd md', () => {
  it('runs Langevin for exactly --steps, with a trajectory every --traj-every steps, a log and the final frames', async () => {
    const args = [...base(), '--ensemble', 'langevin', '--temperature', '0.2', '--dt', '0.005', '--steps', '300', '--traj', 'traj.xyz', '--traj-every', '100', '--log', 'md.jsonl', '--log-every', '50', '--out', 'final.xyz', '--json'];
    const result = await runCli(args, { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ command: 'md', systems: 3, steps: 300, converged: null, interrupted: null, outputs: ['traj.xyz', 'md.jsonl', 'final.xyz'] });
    const traj = readExtxyz(join(dir, 'traj.xyz'), { units: 'lj' });
    // As LAMMPS's thermo and dumps: the input (step 0), every multiple of the interval, the last step.
    expect(traj.map((s) => s.info?.step)).toEqual([0, 100, 200, 300].flatMap((step) => [step, step, step]));
    const rows = readFileSync(join(dir, 'md.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, number>);
    expect(rows.map((r) => r.step)).toEqual([0, 50, 100, 150, 200, 250, 300].flatMap((step) => [step, step, step]));
    // The thermo of `hookmd md --log`: time in τ (step × dt), T, potential, kinetic and total energy.
    expect(Object.keys(rows[0])).toEqual(['step', 'time', 'system', 'systemId', 'status', 'temperature', 'energy', 'kineticEnergy', 'totalEnergy', 'fmax']);
    expect(rows.at(-1)?.time).toBeCloseTo(300 * 0.005, 12);
    expect(rows.at(-1)?.totalEnergy).toBeCloseTo((rows.at(-1)?.energy ?? 0) + (rows.at(-1)?.kineticEnergy ?? 0), 12);
    const final = readExtxyz(join(dir, 'final.xyz'), { units: 'lj' });
    expect(final.map((s) => s.info?.step)).toEqual([300, 300, 300]);
    expect(final.map((s) => s.info?.tag)).toEqual([0, 1, 2]);
  });

  it('draws Maxwell–Boltzmann velocities for input at rest, and keeps moving input as it is (NVE)', async () => {
    const heated = await runCli([...base(), '--temperature', '0.5', '--steps', '1', '--out', 'hot.xyz'], { cwd: dir });
    expect(heated.code).toBe(0);
    const hot = readExtxyz(join(dir, 'hot.xyz'), { units: 'lj' });
    expect(hot.every((s) => (s.velocities as number[][]).some((v) => v.some((c) => c !== 0)))).toBe(true);
    // Restarting from moving frames keeps their velocities: drawing them anew at T = 5 would triple the speed.
    const restarted = await runCli(['md', join(dir, 'hot.xyz'), '--units', 'lj', '--model', LJ_MODEL, '--quiet', '--temperature', '5', '--steps', '1', '--out', 'again.xyz'], { cwd: dir });
    expect(restarted.code).toBe(0);
    const again = readExtxyz(join(dir, 'again.xyz'), { units: 'lj' });
    const speed = (s: (typeof hot)[number]): number => Math.hypot(...(s.velocities as number[][]).flat());
    expect(speed(again[0]) / speed(hot[0])).toBeLessThan(1.3);
  });

  it('shows the temperature and the total energy in its progress lines', async () => {
    const result = await runCli(['md', input, '--units', 'lj', '--model', LJ_MODEL, '--temperature', '0.3', '--steps', '200', '--out', 'progress.xyz', '--progress-interval', '0'], { cwd: dir });
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatch(/^md: \d+\/200 steps .*, T \d+\.\d, E -?\d+\.\d+(e[+-]\d+)? ε$/);
  });

  it('runs a Nosé–Hoover chain with --tdamp', async () => {
    const result = await runCli([...base(), '--ensemble', 'nhc', '--temperature', '0.1', '--tdamp', '0.5', '--steps', '200', '--out', 'nhc.xyz', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ steps: 200, processed: 3 });
  });
});
