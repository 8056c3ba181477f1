// The Trainer on the hook kernel: stage order and counters, determinism, read-only observers, writable
// gradients, metrics, run metadata, failures, and typed errors for bad input.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../../lib/errors.js';
import { HookError } from '../../lib/hooks/index.js';
import { JsModel, LennardJones } from '../../lib/models/index.js';
import { getThreads, setThreads } from '../../lib/native/index.js';
import {
  ForceMatchingLoss,
  ForwardObserverHook,
  GradientClipHook,
  GradientMonitorHook,
  LearningRateMonitorHook,
  SGD,
  StepLR,
  TRAINING_STAGES,
  Trainer,
  TrainingLoggingHook,
  TrainingStage,
  gitCommit,
} from '../../lib/training/index.js';
import type { Predictions, TrainingHook, TrainingHookContext } from '../../lib/training/index.js';
import { data, makeTrainer, removeTempDirs, startModel, tempDir } from './fixtures.js';

afterAll(removeTempDirs);

function gitAvailable(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function captureError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

function recorder(stages: readonly TrainingStage[] = TRAINING_STAGES): TrainingHook & { seen: string[] } {
  const seen: string[] = [];
  return {
    name: 'Recorder',
    stage: null,
    frequency: 1,
    seen,
    runsOnStage: (stage) => stages.includes(stage),
    call: (ctx: TrainingHookContext, stage) => {
      seen.push(`${stage}@${ctx.stepCount}/e${ctx.epoch}${ctx.systems === null ? '' : `b${ctx.batchIndex}`}`);
    },
  };
}

describe('TrainingStage', () => {
  it('has exactly the stages of the issue, in order', () => {
    expect(TRAINING_STAGES).toEqual([
      'ON_CHECKPOINT_LOAD', 'BEFORE_TRAIN', 'BEFORE_EPOCH', 'BEFORE_STEP', 'AFTER_FORWARD', 'AFTER_LOSS', 'BEFORE_OPTIMIZER_STEP', 'ON_GRADIENT_CLIP',
      'AFTER_OPTIMIZER_STEP', 'AFTER_STEP', 'BEFORE_VALIDATION', 'AFTER_VALIDATION', 'AFTER_EPOCH', 'BEFORE_CHECKPOINT_SAVE', 'ON_CHECKPOINT_SAVE',
      'AFTER_TRAIN',
    ]);
    // The trainer-style names of the validation stages are the same stages.
    expect([TrainingStage.ON_VALIDATION_START, TrainingStage.ON_VALIDATION_END]).toEqual([TrainingStage.BEFORE_VALIDATION, TrainingStage.AFTER_VALIDATION]);
  });
});

describe('Trainer stages and counters', () => {
  it('fires every stage in the documented order; stepCount counts optimizer steps across epochs', async () => {
    const rec = recorder();
    const save: TrainingHook = {
      name: 'SaveAtStep1', stage: TrainingStage.AFTER_STEP, frequency: 1,
      call: (ctx) => {
        if (ctx.stepCount === 1) ctx.saveCheckpoint(() => 'step1.json');
      },
    };
    // 5 systems in batches of 2: 3 steps per epoch.
    const trainer = makeTrainer({ train: data().train.slice(0, 5), batchSize: 2, epochs: 2, hooks: [save, rec] });
    const history = await trainer.fit();
    const step = (k: number, e: number, b: number): string[] =>
      ['BEFORE_STEP', 'AFTER_FORWARD', 'AFTER_LOSS', 'BEFORE_OPTIMIZER_STEP', 'AFTER_OPTIMIZER_STEP', 'AFTER_STEP'].map((s) => `${s}@${k}/e${e}b${b}`);
    const epochEnd = (k: number, e: number): string[] => [`BEFORE_VALIDATION@${k}/e${e}`, `AFTER_VALIDATION@${k}/e${e}`, `AFTER_EPOCH@${k}/e${e}`];
    expect(rec.seen).toEqual([
      'BEFORE_TRAIN@0/e0',
      'BEFORE_EPOCH@0/e0', ...step(0, 0, 0), ...step(1, 0, 1), 'BEFORE_CHECKPOINT_SAVE@1/e0', 'ON_CHECKPOINT_SAVE@1/e0', ...step(2, 0, 2), ...epochEnd(3, 0),
      'BEFORE_EPOCH@3/e1', ...step(3, 1, 0), ...step(4, 1, 1), ...step(5, 1, 2), ...epochEnd(6, 1),
      'AFTER_TRAIN@6/e2',
    ]);
    expect(history.stepCount).toBe(6);
    expect(trainer.stepCount).toBe(6);
    expect(history.epochs.map((e) => [e.epoch, e.stepCount])).toEqual([[0, 3], [1, 6]]);
  });

  it('skips the validation stages without a validation set, and a later fit() trains on to `epochs`', async () => {
    const rec = recorder([TrainingStage.BEFORE_VALIDATION, TrainingStage.AFTER_VALIDATION, TrainingStage.AFTER_EPOCH]);
    const trainer = makeTrainer({ validation: undefined, epochs: 2, hooks: [rec] });
    await trainer.fit();
    expect(rec.seen).toEqual(['AFTER_EPOCH@4/e0', 'AFTER_EPOCH@8/e1']);
    const again = await trainer.fit();
    expect(again.epochs).toHaveLength(2);
    expect(again.stepCount).toBe(8);
  });

  it('is deterministic for a seed, whatever the thread count, and the seed decides the shuffle', async () => {
    const threads = getThreads();
    const a = await makeTrainer({ epochs: 3 }).fit();
    setThreads(threads === 1 ? 2 : 1);
    const b = await makeTrainer({ epochs: 3 }).fit().finally(() => setThreads(threads));
    const c = await makeTrainer({ epochs: 3, seed: 6 }).fit();
    expect(b.parameters).toStrictEqual(a.parameters);
    expect(b.epochs).toStrictEqual(a.epochs);
    expect(c.parameters).not.toStrictEqual(a.parameters);
  });

  it('gives the learning rate of each epoch to LearningRateMonitorHook and history', async () => {
    const lr = new LearningRateMonitorHook();
    const history = await makeTrainer({ optimizer: new SGD({ lr: 0.4 }), lrScheduler: new StepLR({ stepSize: 2, gamma: 0.5 }), epochs: 5, hooks: [lr] }).fit();
    expect(lr.values.map((e) => e.lr)).toEqual([0.4, 0.4, 0.2, 0.2, 0.1]);
    expect(history.epochs.map((e) => e.lr)).toEqual([0.4, 0.4, 0.2, 0.2, 0.1]);
    expect(history.epochs[4].metrics.lr).toBe(0.1);
  });
});

describe('Trainer hooks and the step', () => {
  it('computes the same losses with read-only forward observers attached, whatever they do to the predictions', async () => {
    const losses = (extra: TrainingHook[]): Promise<number[]> => {
      const seen: number[] = [];
      const loss: TrainingHook = { name: 'Loss', stage: TrainingStage.AFTER_LOSS, frequency: 1, call: (ctx) => void seen.push(ctx.loss) };
      return makeTrainer({ epochs: 3, hooks: [...extra, loss] }).fit().then((h) => [...seen, ...h.epochs.map((e) => e.metrics.val_loss), ...(Object.values(h.parameters) as number[])]);
    };
    const plain = await losses([]);
    let observed = 0;
    const scribbler = new ForwardObserverHook({
      validation: true,
      observe: (p) => {
        observed += p.energy.length;
        p.energy.fill(1e9);
        p.forces.fill(-3);
        p.stress.fill(7);
      },
    });
    const watched = await losses([scribbler, new ForwardObserverHook({ observe: (p) => void p.forces.reverse() })]);
    expect(observed).toBeGreaterThan(0);
    expect(watched).toStrictEqual(plain);
  });

  it('hands predictions that match the model and refuses stale ones', async () => {
    let first: { energy: number; system: number } | undefined;
    let held: Predictions | undefined;
    let stale: unknown;
    const observer = new ForwardObserverHook({
      observe: (p, ctx) => {
        if (ctx.stepCount === 0) first = { energy: p.energy[0], system: p.systems[0] };
        if (ctx.stepCount === 2) stale = captureError(() => held!.forces);
      },
    });
    // Holds step 1's predictions without reading them; they are gone once step 2 has run its forward pass.
    const holder = new ForwardObserverHook({ name: 'Holder', observe: (p, ctx) => void (ctx.stepCount === 1 && (held = p)) });
    await makeTrainer({ epochs: 1, hooks: [observer, holder] }).fit();
    const batch = Batch.fromSystems([data().train[first!.system]]);
    startModel().compute(batch);
    expect(Math.abs(first!.energy / batch.energy[0] - 1)).toBeLessThan(1e-12);
    expect((stale as HookmdError).code).toBe('STALE_PREDICTIONS');
  });

  it('lets update hooks rewrite gradients at BEFORE_OPTIMIZER_STEP, and only there', async () => {
    const zero: TrainingHook = {
      name: 'Zero', stage: TrainingStage.BEFORE_OPTIMIZER_STEP, frequency: 1,
      call: (ctx) => {
        for (const name of Object.keys(ctx.gradients)) ctx.gradients[name] = 0;
      },
    };
    const trainer = makeTrainer({ epochs: 2, hooks: [zero] });
    const start = trainer.parameters;
    const { parameters } = await trainer.fit();
    expect(parameters).toStrictEqual(start);

    const late: TrainingHook = { name: 'Late', stage: TrainingStage.AFTER_LOSS, frequency: 1, call: (ctx) => void (ctx.gradients.epsilon = 0) };
    const error = await makeTrainer({ epochs: 1, hooks: [late] }).fit().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect((error as HookError).hookName).toBe('Late');
    expect((error as HookError).cause).toBeInstanceOf(TypeError);
  });

  it('clips by norm with GradientClipHook; GradientMonitorHook sees the gradients before it', async () => {
    const before: number[] = [];
    const steps: Array<{ grad: Record<string, number>; moved: number[] }> = [];
    let previous: number[] = [];
    const monitor = new GradientMonitorHook({ filter: /sigma/, percentiles: [50, 100], writer: (s) => void before.push(s.norm) });
    const clip = new GradientClipHook({ maxNorm: 1e-4 });
    const track: TrainingHook = {
      name: 'Track', stage: null, frequency: 1,
      runsOnStage: (s) => s === TrainingStage.BEFORE_STEP || s === TrainingStage.AFTER_OPTIMIZER_STEP,
      call: (ctx, stage) => {
        const u = (Object.values(ctx.parameters) as number[]).map(Math.log);
        if (stage === TrainingStage.BEFORE_STEP) previous = u;
        else steps.push({ grad: { ...(ctx.gradients as Record<string, number>) }, moved: u.map((v, k) => v - previous[k]) });
      },
    };
    const trainer = makeTrainer({ optimizer: new SGD({ lr: 1, momentum: 0 }), lrScheduler: null, epochs: 1, hooks: [monitor, clip, track] });
    await trainer.fit();
    expect(monitor.last!.values).toHaveProperty('sigma');
    expect(monitor.last!.values).not.toHaveProperty('epsilon');
    expect(monitor.last!.percentiles[100]).toBe(Math.abs(monitor.last!.values.sigma as number));
    expect(clip.clippedSteps).toBe(steps.length);
    for (const { grad, moved } of steps) {
      // torch's rule: scale = maxNorm / (norm + 1e-6).
      expect(Math.hypot(...Object.values(grad)) / 1e-4).toBeGreaterThan(0.999);
      expect(Math.hypot(...Object.values(grad))).toBeLessThanOrEqual(1e-4);
      // SGD without momentum, lr 1: the step in ln θ is minus the clipped gradient.
      Object.values(grad).forEach((g, k) => expect(moved[k]).toBeCloseTo(-g, 12));
    }
    expect(before.every((n) => n > 1e-3)).toBe(true);
  });

  it('reports validation MAE and RMSE of energy per atom and forces, as the loss computes them', async () => {
    const trainer = makeTrainer({ epochs: 2 });
    const history = await trainer.fit();
    const metrics = history.epochs[1].metrics;
    const check = new ForceMatchingLoss({ model: startModel(), systems: data().validation, weights: { energy: 1, forces: 1, stress: 1 } }).evaluate({
      parameters: history.parameters as Record<string, number>,
    });
    expect(metrics.val_loss).toBe(check.loss);
    expect(metrics.val_energy_mae).toBe(check.metrics.energyMae);
    expect(metrics.val_energy_rmse).toBe(check.metrics.energyRmse);
    expect(metrics.val_forces_mae).toBe(check.metrics.forcesMae);
    expect(metrics.val_forces_rmse).toBe(check.metrics.forcesRmse);
    expect(metrics.val_stress_rmse).toBe(check.metrics.stressRmse);
    expect(metrics.train_loss).toBeGreaterThan(0);
  });
});

describe('run metadata', () => {
  it('is logged at BEFORE_TRAIN and lists the hooks with their enabled state', async () => {
    const dir = tempDir('meta');
    const log = new TrainingLoggingHook({ path: join(dir, 'fit.jsonl'), format: 'jsonl' });
    const lr = new LearningRateMonitorHook();
    const trainer = makeTrainer({ epochs: 2, hooks: [log, lr] });
    trainer.hooks.handles()[1].disable();
    const history = await trainer.fit();
    const lines = readFileSync(join(dir, 'fit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const { metadata } = history;
    expect(lines[0]).toEqual({ event: 'metadata', ...metadata });
    expect(lines.slice(1).map((row) => row.epoch)).toEqual([0, 1]);
    expect(metadata.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(metadata.configHash).toBe(trainer.configHash);
    expect(metadata.configHash).toMatch(/^[0-9a-f]{64}$/);
    // Whatever the suite runs in (a clone, an unpacked tarball, no git at all), the run reports the answer of
    // gitCommit() for its working directory; gitCommit itself is tested on a repository of its own below.
    expect(metadata.gitCommit).toBe(gitCommit());
    expect(metadata.hooks.map((h) => [h.name, h.enabled])).toEqual([['TrainingLoggingHook', true], ['LearningRateMonitorHook', false]]);
    expect(trainer.checkpoint().metadata).toEqual(metadata);
  });
});

describe('gitCommit', () => {
  it("is 'unknown' outside a repository", () => {
    expect(gitCommit(tempDir('no-repo'))).toBe('unknown');
  });

  it.runIf(gitAvailable())('is the commit checked out in the directory', () => {
    // Git's hooks export these, and they would point every command below at another repository.
    for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) vi.stubEnv(name, undefined);
    const repo = tempDir('repo');
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=hookmd', '-c', 'user.email=hookmd@example.invalid', ...args], { cwd: repo, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'metadata');
    expect(gitCommit(repo)).toBe(git('rev-parse', 'HEAD'));
    vi.unstubAllEnvs();
  });
});

describe('failures', () => {
  it('a hook that throws mid-epoch: every hook sees onException, then close; the error names the hook and the stage', async () => {
    const events: string[] = [];
    const witness = (name: string): TrainingHook => ({
      name, stage: TrainingStage.AFTER_STEP, frequency: 1, call: () => {},
      onException: (error) => void events.push(`${name}.onException(${(error as HookError).hookName})`),
      close: () => void events.push(`${name}.close`),
    });
    const boom: TrainingHook = {
      name: 'Boom', stage: TrainingStage.AFTER_LOSS, frequency: 1,
      call: (ctx) => {
        if (ctx.stepCount === 6) throw new Error('bad batch');
      },
    };
    const error = await makeTrainer({ hooks: [witness('A'), boom, witness('B')] }).fit().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toMatchObject({ hookName: 'Boom', stage: 'AFTER_LOSS', step: 6, code: 'HOOK_FAILED' });
    expect((error as Error).message).toContain("hook 'Boom' failed at stage AFTER_LOSS, step 6: bad batch");
    expect(events).toEqual(['A.onException(Boom)', 'B.onException(Boom)', 'B.close', 'A.close']);
  });

  it('stops a diverging fit with TRAINING_DIVERGED', async () => {
    const error = await makeTrainer({ optimizer: new SGD({ lr: 1e6 }), epochs: 1 }).fit().catch((e: unknown) => e);
    expect((error as HookmdError).code).toBe('TRAINING_DIVERGED');
  });

  it('rejects bad options, parameters and data with typed errors', () => {
    const { train } = data();
    const base = { model: startModel(), train, epochs: 2 };
    const codeOf = (make: () => unknown): string => (captureError(make) as HookmdError | undefined)?.code ?? 'no error';
    expect(codeOf(() => new Trainer({ ...base, epochs: undefined as unknown as number }))).toBe('INVALID_OPTIONS');
    expect(() => new Trainer({ ...base, epochs: 0 })).toThrow(HookmdRangeError);
    expect(codeOf(() => new Trainer({ ...base, batchSize: 1.5 }))).toBe('INVALID_OPTIONS');
    expect(codeOf(() => new Trainer({ ...base, seed: 0.5 }))).toBe('INVALID_OPTIONS');
    expect(codeOf(() => new Trainer({ ...base, epoch: 3 } as never))).toBe('UNKNOWN_OPTION');
    expect(codeOf(() => new Trainer({ ...base, model: new JsModel(() => ({ energy: [0], forces: [0, 0, 0] })) as never }))).toBe('UNSUPPORTED_MODEL');
    expect(codeOf(() => new Trainer({ ...base, model: new LennardJones({ epsilon: 0, sigma: 3, cutoff: 8 }) }))).toBe('INVALID_PARAMETER');
    expect(codeOf(() => new Trainer({ ...base, train: [] }))).toBe('INVALID_DATA');
    expect(codeOf(() => new Trainer({ ...base, train: [{ symbols: ['Ar'], positions: [[0, 0, 0]] }] }))).toBe('NO_REFERENCE');
    expect(codeOf(() => new Trainer({ ...base, train: [{ symbols: ['Ar'], positions: [[0, 0, Number.NaN]], energy: 0 }] }))).toBe('INVALID_POSITIONS');
    expect(codeOf(() => new Trainer({ ...base, train: [{ ...train[0], stress: undefined }, { ...train[0], cell: undefined, pbc: false, stress: train[5].stress }] }))).toBe(
      'INVALID_REFERENCE',
    );
    expect(codeOf(() => new Trainer({ ...base, train: [{ symbols: ['Kr', 'Kr'], positions: [[0, 0, 0], [4, 0, 0]], energy: 0 }], model: new LennardJones({ cutoff: 8, pairs: { 'Ar-Ar': { epsilon: 0.01, sigma: 3.4 } } }) }))).toBe('MISSING_PAIR');
    expect(codeOf(() => new Trainer({ ...base, lossWeights: { forces: -1 } }))).toBe('INVALID_LOSS_WEIGHTS');
    expect(codeOf(() => new Trainer({ ...base, lossWeights: { energy: 0, forces: 0 } }))).toBe('INVALID_LOSS_WEIGHTS');
    expect(codeOf(() => new Trainer({ ...base, optimizer: { type: 'LBFGS' } }))).toBe('UNKNOWN_OPTIMIZER');
    expect(codeOf(() => new Trainer({ ...base, optimizer: { type: 'Adam', lr: -1 } }))).toBe('INVALID_OPTIONS');
    expect(codeOf(() => new Trainer({ ...base, lrScheduler: { type: 'Cosine' } }))).toBe('INVALID_OPTIONS');
    expect(codeOf(() => new Trainer({ ...base, lrScheduler: { type: 'OneCycle' } }))).toBe('UNKNOWN_SCHEDULER');
    expect(codeOf(() => new Trainer({ ...base, hooks: [{ stage: 3, frequency: 1, call: () => {} }] }))).toBe('FOREIGN_STAGE');
    expect(() => new GradientClipHook({})).toThrow(HookmdError);
    expect(() => new TrainingLoggingHook({ format: 'xml' } as never)).toThrow(HookmdTypeError);
  });

  it('refuses a second concurrent fit()', async () => {
    const trainer = makeTrainer({ epochs: 1 });
    const first = trainer.fit();
    await expect(trainer.fit()).rejects.toMatchObject({ code: 'TRAINER_BUSY' });
    await first;
  });
});
