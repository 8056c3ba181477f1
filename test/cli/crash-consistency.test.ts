// Issue 27, items 5 and 10: `hookmd fit`, `relax` and `md` killed with SIGKILL at random points (and fit at
// the worst one: after its log row is flushed, before the checkpoint is durable) leave files that agree:
// a resumed fit logs every epoch exactly once, equal to an uninterrupted fit; staged outputs are absent or
// complete; logs and trajectories hold whole rows and frames; no temporary survives the next run.
// A few kills per command in `npm test`; many under `npm run test:fuzz`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, createRng } from '../../lib/data/index.js';
import { readExtxyz, readZarr, streamExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { readCheckpoint } from '../../lib/training/index.js';
import { argonSet } from '../training/argon-data.js';
import { budgetMs, cases } from '../helpers/fuzz-budget.js';
import { collect, ensureBuilt, runCli, spawnCli, workDir } from './run-cli.js';

const rng = createRng(Number(process.env.HOOKMD_FUZZ_SEED ?? 27_005));
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir('hookmd-crash-');
  const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });
  await writeExtxyz(join(dir, 'data.xyz'), argonSet(model, { clusters: 3, crystals: 3, seed: 5 }));
  // A hook that SIGKILLs its own process once, at BEFORE_CHECKPOINT_SAVE of the given epoch: the log row of
  // that epoch is on disk, its checkpoint not yet.
  writeFileSync(join(dir, 'kill-hook.mjs'), [
    "import { existsSync, writeFileSync } from 'node:fs';",
    'export class KillBeforeCheckpoint {',
    "  constructor({ epoch, marker }) { Object.assign(this, { stage: 'BEFORE_CHECKPOINT_SAVE', frequency: 1, epoch, marker }); }",
    '  call(ctx) {',
    "    if (ctx.checkpoint.epoch === this.epoch && !existsSync(this.marker)) { writeFileSync(this.marker, ''); process.kill(process.pid, 'SIGKILL'); }",
    '  }',
    '}',
    '',
  ].join('\n'));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EPOCHS = 12;
const fitConfig = (work: string, extraHooks: string[] = []): string => `model: { type: LennardJones, epsilon: 0.02, sigma: 3.0, cutoff: 8.5 }
train: data.xyz
lossWeights: { energy: 1, forces: 1, stress: 1 }
optimizer: { type: Adam, lr: 0.05 }
lrScheduler: { type: Cosine, tMax: ${EPOCHS} }
epochs: ${EPOCHS}
batchSize: 2
seed: 3
hooks:
  - { type: CheckpointHook, dirpath: ${work}/ckpt, monitor: train_loss, saveTopK: 2, saveLast: true }
  - { type: TrainingLoggingHook, path: ${work}/fit.csv }
${extraHooks.map((h) => `  - ${h}`).join('\n')}
`;

/** A fresh folder under the test directory with a fit config in it. */
function fitFolder(name: string, extraHooks: string[] = []): string {
  const work = join(dir, name);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  writeFileSync(join(dir, `${name}.yaml`), fitConfig(name, extraHooks));
  return work;
}

async function fitOnce(name: string, killAfterMs?: number): Promise<number | null> {
  const last = join(dir, name, 'ckpt', 'last.json');
  const args = ['fit', `${name}.yaml`, '--quiet', ...(existsSync(last) ? ['--resume', `${name}/ckpt/last.json`] : [])];
  const child = spawnCli(args, { cwd: dir });
  const done = collect(child, 120_000);
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const result = await done;
  clearTimeout(timer);
  if (result.code !== 0 && result.code !== null) throw new Error(`hookmd fit failed (${result.code}): ${result.stderr}`);
  return result.code;
}

/** The log of an uninterrupted fit, and how long that fit took (ms). */
let reference: { log: string; ms: number } | undefined;
async function referenceFit(): Promise<{ log: string; ms: number }> {
  if (reference !== undefined) return reference;
  fitFolder('reference');
  const started = performance.now();
  expect(await fitOnce('reference')).toBe(0);
  reference = { log: readFileSync(join(dir, 'reference', 'fit.csv'), 'utf8'), ms: performance.now() - started };
  return reference;
}

/** Every epoch exactly once in the log, the checkpoints and the history, all equal to the uninterrupted fit. */
async function expectConsistentFit(name: string): Promise<void> {
  const { log } = await referenceFit();
  const written = readFileSync(join(dir, name, 'fit.csv'), 'utf8');
  const epochs = written.trimEnd().split('\n').slice(1).map((row) => Number(row.split(',')[0]));
  expect(epochs).toEqual(Array.from({ length: EPOCHS }, (_, e) => e));
  expect(written).toBe(log);
  const last = readCheckpoint(join(dir, name, 'ckpt', 'last.json'));
  expect(last.history.map((h) => h.epoch)).toEqual(epochs);
  const rows = new Map(log.trimEnd().split('\n').slice(1).map((row) => [Number(row.split(',')[0]), row]));
  const header = log.split('\n')[0].split(',');
  // Every checkpoint file on disk decodes, and its history is a prefix of the final one, row for row.
  for (const file of readdirSync(join(dir, name, 'ckpt')).filter((f) => f.endsWith('.json'))) {
    const checkpoint = readCheckpoint(join(dir, name, 'ckpt', file));
    checkpoint.history.forEach((h, k) => {
      expect(h).toEqual(last.history[k]);
      const cells = (rows.get(h.epoch) as string).split(',');
      expect(Number(cells[header.indexOf('train_loss')])).toBe(h.metrics.train_loss);
    });
  }
  expect(readdirSync(join(dir, name, 'ckpt')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
}

describe('hookmd fit killed and resumed', () => {
  it('killed after the log row of epoch 3 is written and before its checkpoint is: the resumed log has epoch 3 once', async () => {
    fitFolder('window', [`{ type: ./kill-hook.mjs#KillBeforeCheckpoint, epoch: 4, marker: ${join(dir, 'window', 'killed')} }`]);
    expect(await fitOnce('window')).toBeNull();
    expect(readCheckpoint(join(dir, 'window', 'ckpt', 'last.json')).epoch).toBe(3);
    expect(await fitOnce('window')).toBe(0);
    await expectConsistentFit('window');
  }, 120_000);

  it(`killed at ${cases(3, 30)} random points: every epoch exactly once, equal to an uninterrupted fit`, async () => {
    const { ms } = await referenceFit();
    fitFolder('random');
    let kills = 0;
    for (let attempt = 0; attempt < cases(3, 30) * 4 && kills < cases(3, 30); attempt++) {
      const code = await fitOnce('random', ms * (0.2 + 0.8 * rng.uniform()));
      if (code === 0) fitFolder('random');
      else kills++;
    }
    while ((await fitOnce('random')) !== 0);
    await expectConsistentFit('random');
  }, budgetMs(240_000, 1_800_000));
});

/** The lines of a csv log: a header, then whole rows of as many cells. */
function expectWholeRows(path: string): number {
  if (!existsSync(path)) return 0;
  const lines = readFileSync(path, 'utf8').split('\n');
  expect(lines.at(-1)).toBe('');
  const width = lines[0].split(',').length;
  for (const line of lines.slice(1, -1)) expect(line.split(',')).toHaveLength(width);
  return lines.length - 2;
}

describe('hookmd relax and md killed at random points', () => {
  const inputs = Array.from({ length: 24 }, (_, i) => ({
    symbols: Array(5 + (i % 4)).fill('Ar'),
    positions: Array.from({ length: 5 + (i % 4) }, (_, k) => [3.9 * k, 0.4 * Math.sin(i + k), 0.4 * Math.cos(2 * i + k)]),
  }));

  it(`relax: out.xyz absent or complete, the Zarr store and the log whole, no temporaries after a rerun (${cases(3, 20)} kills)`, async () => {
    await writeExtxyz(join(dir, 'chains.xyz'), inputs);
    const args = (n: number): string[] => ['relax', 'chains.xyz', '--model', 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5', '--fmax', '1e-4', '--max-atoms', '40',
      '--out', 'relaxed.xyz', '--zarr', `relaxed-${n}.zarr`, '--log', 'relax.csv', '--log-every', '5', '--quiet'];
    const started = performance.now();
    expect((await runCli(args(0), { cwd: dir, timeoutMs: 120_000 })).code).toBe(0);
    const ms = performance.now() - started;
    rmSync(join(dir, 'relaxed.xyz'));
    for (let n = 1; n <= cases(3, 20); n++) {
      const child = spawnCli(args(n), { cwd: dir });
      const done = collect(child, 120_000);
      setTimeout(() => child.kill('SIGKILL'), ms * rng.uniform());
      const result = await done;
      if (existsSync(join(dir, 'relaxed.xyz'))) expect(readExtxyz(join(dir, 'relaxed.xyz'))).toHaveLength(inputs.length);
      if (existsSync(join(dir, `relaxed-${n}.zarr`, 'zarr.json'))) {
        const stored = await readZarr(join(dir, `relaxed-${n}.zarr`));
        expect(stored.length).toBeLessThanOrEqual(inputs.length);
        if (stored.length > 0) expect(Batch.fromSystems(stored).numSystems).toBe(stored.length);
      }
      expectWholeRows(join(dir, 'relax.csv'));
      if (result.code === 0) rmSync(join(dir, 'relaxed.xyz'));
    }
    // What a writer killed mid-write leaves: a temporary of a pid that no longer runs, which the next run
    // removes; one of a live process (this one) stays.
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    writeFileSync(join(dir, `.relaxed.xyz.${dead}.0123456789ab.tmp`), 'half a frame');
    writeFileSync(join(dir, `.relaxed.xyz.${process.pid}.0123456789ab.tmp`), 'still being written');
    expect((await runCli(args(99), { cwd: dir, timeoutMs: 120_000 })).code).toBe(0);
    expect(readExtxyz(join(dir, 'relaxed.xyz'))).toHaveLength(inputs.length);
    expect(readdirSync(dir).filter((name) => name.startsWith('.relaxed.xyz.'))).toEqual([`.relaxed.xyz.${process.pid}.0123456789ab.tmp`]);
  }, budgetMs(240_000, 1_800_000));

  it(`md: the trajectory holds whole frames (a torn last one is EXTXYZ_PARSE), the log whole rows, --out absent or complete (${cases(3, 20)} kills)`, async () => {
    await writeExtxyz(join(dir, 'melt.xyz'), inputs.slice(0, 6));
    const args = ['md', 'melt.xyz', '--model', 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5', '--ensemble', 'langevin', '--temperature', '60', '--dt', '2',
      '--steps', '1500', '--traj', 'traj.xyz', '--traj-every', '20', '--log', 'md.csv', '--log-every', '20', '--out', 'final.xyz', '--quiet'];
    const started = performance.now();
    expect((await runCli(args, { cwd: dir, timeoutMs: 120_000 })).code).toBe(0);
    const ms = performance.now() - started;
    for (let n = 1; n <= cases(3, 20); n++) {
      rmSync(join(dir, 'final.xyz'), { force: true });
      const child = spawnCli(args, { cwd: dir });
      const done = collect(child, 120_000);
      setTimeout(() => child.kill('SIGKILL'), ms * rng.uniform());
      await done;
      let frames = 0;
      try {
        for await (const frame of streamExtxyz(join(dir, 'traj.xyz'))) {
          expect(Batch.fromSystems([frame]).numAtoms).toBeGreaterThan(0);
          frames++;
        }
      } catch (error) {
        expect(error).toMatchObject({ code: 'EXTXYZ_PARSE', message: expect.stringMatching(/truncated frame/) });
      }
      expect(frames).toBeLessThanOrEqual(6 * (1500 / 20 + 1));
      expectWholeRows(join(dir, 'md.csv'));
      if (existsSync(join(dir, 'final.xyz'))) expect(readExtxyz(join(dir, 'final.xyz'))).toHaveLength(6);
    }
  }, budgetMs(240_000, 1_800_000));
});
