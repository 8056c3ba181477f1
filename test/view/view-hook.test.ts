// ViewHook without a browser: what it records for pages that open later (and reads through data.json),
// on an engine and on a trainer, within its memory bounds, and its option checks.
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { DynamicsStage, FIRE, VelocityVerlet } from '../../lib/dynamics/index.js';
import type { ViewData } from '../../lib/view/index.js';
import { ViewHook } from '../../lib/view/index.js';
import { makeTrainer } from '../training/fixtures.js';
import { argonBatch, argonModel } from './fixtures.js';

async function snapshot(url: string): Promise<ViewData> {
  return (await (await fetch(new URL('data.json', url))).json()) as ViewData;
}

/** A hook whose server stays up after the run, so that data.json can be read: close() is called by hand. */
async function started(hook: ViewHook): Promise<{ url: string; stop: () => void }> {
  const url = await hook.start();
  const close = hook.close.bind(hook);
  hook.close = () => undefined;
  return { url, stop: close };
}

describe('ViewHook', () => {
  it('records every system every `frequency` steps: frames, energies and temperatures as the engine has them', async () => {
    const hook = new ViewHook({ frequency: 50 });
    const { url, stop } = await started(hook);
    try {
      const batch = argonBatch();
      const seen: Array<{ step: number; energy: number; temperature: number }> = [];
      const md = new VelocityVerlet({ model: argonModel(), dt: 2, hooks: [hook] });
      md.register({ stage: DynamicsStage.AFTER_STEP, frequency: 50, call: (ctx) => { seen.push({ step: ctx.stepCount, energy: ctx.scalars.energy[0], temperature: ctx.scalars.temperature[0] }); } });
      await md.run(batch, { steps: 200 });
      const data = await snapshot(url);
      expect(data.live).toBe(true);
      expect(data.seq).toBe(4);
      const [system] = data.systems;
      expect(system.scalars.step).toEqual([0, 50, 100, 150]);
      expect(system.scalars.energy).toEqual(seen.map((s) => s.energy));
      expect(system.scalars.temperature).toEqual(seen.map((s) => s.temperature));
      expect(system.frames).toHaveLength(4);
      expect(system.frames[3].positions).toHaveLength(32 * 3);
      expect(system.frames[3].cell).toEqual([10.52, 0, 0, 0, 10.52, 0, 0, 0, 10.52]);
    } finally {
      stop();
    }
  });

  it('keeps at most maxFrames per system and maxStoredAtoms positions in all, oldest first', async () => {
    const hook = new ViewHook({ frequency: 1, maxFrames: 5, maxStoredAtoms: 2 * 32 * 3 });
    const { url, stop } = await started(hook);
    try {
      const two = Batch.fromSystems([...argonBatch().toSystems(), ...argonBatch().toSystems()]);
      await new VelocityVerlet({ model: argonModel(), dt: 2, hooks: [hook] }).runSync(two, { steps: 10 });
      const data = await snapshot(url);
      // 2 systems × 3 frames fill the budget of 6 frames of 32 atoms; the newest are kept.
      expect(data.systems.map((s) => s.frames.map((f) => f.step))).toEqual([[7, 8, 9], [7, 8, 9]]);
      // Scalars are all kept.
      expect(data.systems[0].scalars.step).toHaveLength(10);
    } finally {
      stop();
    }
  });

  it('on a trainer, records one row per epoch with the loss and metrics', async () => {
    const hook = new ViewHook({ frequency: 1 });
    const { url, stop } = await started(hook);
    try {
      const trainer = makeTrainer({ epochs: 3, hooks: [hook] });
      const history = await trainer.fit();
      const data = await snapshot(url);
      expect(data.training?.epoch).toEqual([0, 1, 2]);
      expect(data.training?.val_loss).toEqual(history.epochs.map((e) => e.metrics.val_loss));
      expect(data.systems).toEqual([]);
    } finally {
      stop();
    }
  });

  it('starts at the run and stops when it ends (nothing keeps the port)', async () => {
    const hook = new ViewHook({ frequency: 10 });
    let during: string | null = null;
    const fire = new FIRE({ model: argonModel(), hooks: [hook] });
    fire.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: () => { during = hook.url; } });
    await fire.run(argonBatch(), { steps: 3 });
    expect(during).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(hook.url).toBeNull();
    await expect(fetch(during as unknown as string)).rejects.toThrow();
  });

  it('refuses bad options with typed errors', () => {
    expect(() => new ViewHook({ port: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new ViewHook({ frequency: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_FREQUENCY' }));
    expect(() => new ViewHook({ maxFrames: 1.5 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new ViewHook({ host: '' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new ViewHook({ prot: 80 } as never)).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
  });
});

describe('ViewHook on a long stream (issue 39, item 23)', () => {
  it('keeps at most maxSystems systems, the first seen going first, and no frames they dropped', async () => {
    const view = new ViewHook({ frequency: 1, maxSystems: 20, maxFrames: 3 });
    const fire = new FIRE({ model: argonModel(), convergence: { criteria: { key: 'fmax', threshold: 1e-2 } }, hooks: [view] });
    function* systems(): Generator<{ symbols: string[]; positions: number[][] }> {
      for (let i = 0; i < 300; i++) yield { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [3.6 + 0.001 * i, 0, 0]] };
    }
    const result = await fire.runStream(systems(), { sinks: [], maxAtoms: 20, maxSteps: 200 });
    expect(result.processed).toBe(300);
    expect(view.storedSystems).toBe(20);
    expect(() => new ViewHook({ maxSystems: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
