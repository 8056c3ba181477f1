// Issue 26, item 7: fit({ signal }) honours its AbortSignal. The fit stops after the current optimizer
// step, every CheckpointHook saves that state, AFTER_TRAIN fires, the hooks close, and fit() rejects with
// HookmdAbortError; a fit resumed from the saved checkpoint ends bit for bit where the uninterrupted one
// does. (The signal used to be ignored: the fit ran all its epochs.)
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { HookmdAbortError } from '../../lib/errors.js';
import { CheckpointHook, readCheckpoint, TrainingStage, type TrainingHookContext } from '../../lib/training/index.js';
import { makeTrainer, removeTempDirs, tempDir } from './fixtures.js';

afterAll(removeTempDirs);

/** A hook that aborts `controller` at the AFTER_STEP of optimizer step `at` (0-based), and records stages. */
function recorder(controller: AbortController, at: number): { stages: string[]; closed: boolean; hook: object } {
  const log = { stages: [] as string[], closed: false, hook: {} };
  log.hook = {
    name: 'Recorder',
    onAfterStep: (ctx: TrainingHookContext) => {
      if (ctx.stepCount === at) controller.abort('preempted');
    },
    onCheckpointSave: (ctx: TrainingHookContext) => void log.stages.push(`save ${ctx.savedCheckpoint?.path.split('/').at(-1)}`),
    onTrainEnd: () => void log.stages.push('AFTER_TRAIN'),
    close: () => {
      log.closed = true;
    },
  };
  return log;
}

describe('fit({ signal }) (issue 26, item 7)', () => {
  it('stops after the current step, saves through the checkpoint hook, fires AFTER_TRAIN and rejects with HookmdAbortError', async () => {
    const dir = tempDir('abort');
    const controller = new AbortController();
    const log = recorder(controller, 5);
    // Saves only at epoch ends (every 4 steps): step 6 is mid-epoch, so only the abort writes it.
    const checkpoints = new CheckpointHook({ dirpath: dir, saveLast: true, saveTopK: 0 });
    const trainer = makeTrainer({ hooks: [log.hook as never, checkpoints] });
    const rejected = await trainer.fit({ signal: controller.signal }).then(() => undefined, (error: unknown) => error);
    expect(rejected).toBeInstanceOf(HookmdAbortError);
    expect(rejected).toMatchObject({ name: 'AbortError', code: 'ABORTED', details: { reason: 'preempted', stepCount: 6, epoch: 1, batchIndex: 2 } });
    expect(trainer.stepCount).toBe(6);
    expect(log.stages).toEqual(['save last.json', 'save interrupted.json', 'save last.json', 'AFTER_TRAIN']);
    expect(log.closed).toBe(true);
    const saved = readCheckpoint(join(dir, 'interrupted.json'));
    expect(saved).toMatchObject({ stepCount: 6, epoch: 1, batchIndex: 2, extra: { interrupted: { reason: 'preempted' } } });
    expect(readCheckpoint(join(dir, 'last.json')).stepCount).toBe(6);
  });

  it('a fit resumed from the interrupted checkpoint ends bit for bit where the uninterrupted fit ends', async () => {
    const dir = tempDir('resume');
    const controller = new AbortController();
    await makeTrainer({ hooks: [recorder(controller, 9).hook as never, new CheckpointHook({ dirpath: dir, saveTopK: 0 })] })
      .fit({ signal: controller.signal })
      .catch(() => undefined);
    const resumed = await makeTrainer().fit({ resumeFrom: join(dir, 'interrupted.json') });
    const straight = await makeTrainer().fit();
    expect(resumed.parameters).toEqual(straight.parameters);
    expect(resumed.stepCount).toBe(straight.stepCount);
    expect(resumed.epochs.map((e) => e.metrics)).toEqual(straight.epochs.map((e) => e.metrics));
  });

  it('an already aborted signal takes no step; without a checkpoint hook nothing is written', async () => {
    const dir = tempDir('early');
    const stages: string[] = [];
    const trainer = makeTrainer({
      hooks: [{ name: 'Stages', runsOnStage: () => true, stage: null, frequency: 1, call: (_ctx: TrainingHookContext, stage: TrainingStage) => void stages.push(TrainingStage[stage]) } as never],
    });
    await expect(trainer.fit({ signal: AbortSignal.abort('no time') })).rejects.toMatchObject({ code: 'ABORTED', details: { reason: 'no time', stepCount: 0 } });
    expect(stages).toEqual(['BEFORE_TRAIN', 'AFTER_TRAIN']);
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('a signal that is not an AbortSignal is INVALID_OPTIONS', async () => {
    await expect(makeTrainer().fit({ signal: { aborted: false } as never })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', details: { field: 'signal' } });
  });
});
