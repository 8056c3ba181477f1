// `hookmd fit` end to end: data from an `hookmd md` trajectory (labelled by the reference argon model),
// a fit that recovers ε and σ from a wrong start, the fitted model reused by `relax`, resume, Ctrl-C.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { collect, ensureBuilt, runCli, spawnCli, waitForLines, workDir } from './run-cli.js';

const ARGON = 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5';
// A rattled 4-atom fcc argon cell: periodic, so its cell gives the fit forces and energies in bulk.
const CRYSTAL = `4
Lattice="5.26 0.0 0.0 0.0 5.26 0.0 0.0 0.0 5.26" Properties=species:S:1:pos:R:3 pbc="T T T"
Ar 0.00 0.05 0.00
Ar 0.00 2.63 2.58
Ar 2.66 0.00 2.63
Ar 2.63 2.61 0.00
`;

const fitConfig = (epochs: number, extra = ''): string => `model: { type: LennardJones, epsilon: 0.02, sigma: 3.0, cutoff: 8.5 }
train: data.xyz
# MD does not evaluate the stress, so the trajectory's stress is not a reference.
lossWeights: { energy: 1, forces: 1, stress: 0 }
optimizer: { type: Adam, lr: 0.05 }
lrScheduler: { type: Cosine, tMax: 60 }
epochs: ${epochs}
batchSize: 7
seed: 1
${extra}`;

let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  writeFileSync(join(dir, 'crystal.xyz'), CRYSTAL);
  const md = await runCli(['md', 'crystal.xyz', '--model', ARGON, '--ensemble', 'langevin', '--temperature', '40', '--dt', '5', '--steps', '1000', '--traj', 'data.xyz', '--traj-every', '50', '--quiet'], { cwd: dir });
  expect(md.code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hookmd fit', () => {
  it('recovers the argon parameters and writes a model that relax takes with --model-config', async () => {
    writeFileSync(join(dir, 'fit.yaml'), fitConfig(60, 'hooks:\n  - { type: TrainingLoggingHook, path: fit.csv }\n'));
    const result = await runCli(['fit', 'fit.yaml', '--out', 'fitted.json', '--json', '--quiet'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { epochs: number; parameters: Record<string, number>; interrupted: string | null; outputs: string[] };
    expect(summary).toMatchObject({ epochs: 60, interrupted: null, outputs: ['fitted.json'] });
    expect(summary.parameters.epsilon).toBeCloseTo(0.0104, 5);
    expect(summary.parameters.sigma).toBeCloseTo(3.4, 3);
    expect(JSON.parse(readFileSync(join(dir, 'fitted.json'), 'utf8'))).toMatchObject({ type: 'lj', cutoff: 8.5 });
    expect(readFileSync(join(dir, 'fit.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(61);
    const relax = await runCli(['relax', 'crystal.xyz', '--model-config', 'fitted.json', '--out', 'relaxed.xyz', '--quiet'], { cwd: dir });
    expect(relax.code).toBe(0);
  });

  it('resumes from a checkpoint', async () => {
    writeFileSync(join(dir, 'ckpt.yaml'), fitConfig(4, 'hooks:\n  - { type: CheckpointHook, dirpath: ckpt, saveLast: true }\n'));
    expect((await runCli(['fit', 'ckpt.yaml', '--quiet'], { cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, 'more.yaml'), fitConfig(6));
    const resumed = await runCli(['fit', 'more.yaml', '--resume', 'ckpt/last.json', '--json', '--quiet'], { cwd: dir });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ epochs: 6, steps: 18 });
  });

  it('rejects a bad config with exit code 2', async () => {
    writeFileSync(join(dir, 'bad-fit.yaml'), fitConfig(5).replace('type: Adam', 'type: Adamax'));
    const result = await runCli(['fit', 'bad-fit.yaml'], { cwd: dir });
    expect(result.stderr).toMatch(/^hookmd: .*Adamax/m);
    expect(result.code).toBe(2);
  });

  it('stops after the current step on SIGINT, closes its hooks and exits 130', async () => {
    writeFileSync(join(dir, 'long.yaml'), fitConfig(1_000_000, 'hooks:\n  - { type: TrainingLoggingHook, path: long.csv, bufferRows: 1 }\n'));
    const child = spawnCli(['fit', 'long.yaml', '--out', 'partial.json', '--json', '--quiet'], { cwd: dir });
    const done = collect(child);
    const log = join(dir, 'long.csv');
    await waitForLines(log, 20, child);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(130);
    const summary = JSON.parse(result.stdout) as { epochs: number; interrupted: string };
    expect(summary.interrupted).toBe('SIGINT');
    expect(summary.epochs).toBeLessThan(1_000_000);
    expect(JSON.parse(readFileSync(join(dir, 'partial.json'), 'utf8'))).toMatchObject({ type: 'lj' });
    const rows = readFileSync(log, 'utf8').trimEnd().split('\n');
    for (const row of rows.slice(1)) expect(row.split(',')).toHaveLength(rows[0].split(',').length);
  });

  // Issue 26, item 7: a preempted cluster job gets SIGTERM. The fit stops after the current step, its
  // CheckpointHook saves that state, and the job, started again with --resume, ends where it would have.
  it('on SIGTERM saves a checkpoint and exits 143; --resume then ends bit for bit where an uninterrupted fit ends', async () => {
    const hooks = (dirpath: string): string => `hooks:\n  - { type: TrainingLoggingHook, path: ${dirpath}.csv, bufferRows: 1 }\n  - { type: CheckpointHook, dirpath: ${dirpath}, saveLast: true, everyNEpochs: 100000 }\n`;
    writeFileSync(join(dir, 'preempted.yaml'), fitConfig(500, hooks('preempted')));
    const child = spawnCli(['fit', 'preempted.yaml', '--json', '--quiet'], { cwd: dir });
    const done = collect(child, 120_000);
    await waitForLines(join(dir, 'preempted.csv'), 20, child);
    child.kill('SIGTERM');
    const stopped = await done;
    expect(stopped.stderr).not.toMatch(/^hookmd: /m);
    expect(stopped.code).toBe(143);
    const summary = JSON.parse(stopped.stdout) as { steps: number; epochs: number; interrupted: string };
    expect(summary.interrupted).toBe('SIGTERM');
    expect(summary.epochs).toBeLessThan(500);
    const saved = JSON.parse(readFileSync(join(dir, 'preempted', 'last.json'), 'utf8')) as { stepCount: number; extra: unknown };
    expect(saved).toMatchObject({ stepCount: summary.steps, extra: { interrupted: { reason: 'SIGTERM' } } });
    const resumed = await runCli(['fit', 'preempted.yaml', '--resume', 'preempted/last.json', '--json', '--quiet'], { cwd: dir, timeoutMs: 120_000 });
    expect(resumed.code).toBe(0);
    writeFileSync(join(dir, 'straight.yaml'), fitConfig(500));
    const straight = await runCli(['fit', 'straight.yaml', '--json', '--quiet'], { cwd: dir, timeoutMs: 120_000 });
    expect(JSON.parse(resumed.stdout)).toMatchObject({ epochs: 500, parameters: JSON.parse(straight.stdout).parameters, steps: JSON.parse(straight.stdout).steps });
  }, 300_000);
});
