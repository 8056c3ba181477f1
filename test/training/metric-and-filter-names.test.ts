// Issue 39, item 10: `ctx.metrics['val/loss']` reads val_loss, as the monitors take either spelling; and a
// GradientMonitorHook filter that selects nothing is an error, where it reported a norm of 0 silently.
import { describe, expect, it } from 'vitest';

import { GradientMonitorHook, TrainingStage } from '../../lib/training/index.js';
import type { TrainingHookContext } from '../../lib/training/index.js';
import { makeTrainer } from './fixtures.js';

const ctxWith = (gradients: Record<string, number>): TrainingHookContext => ({ gradients, metrics: {}, stepCount: 0, epoch: 0 }) as unknown as TrainingHookContext;

describe("metric names in either spelling, and gradient filters that select something (issue 39, item 10)", () => {
  it("ctx.metrics['val/loss'] is ctx.metrics.val_loss", async () => {
    const seen: Array<[number | undefined, number | undefined, boolean]> = [];
    const hook = { name: 'Read', stage: TrainingStage.AFTER_EPOCH, frequency: 1, call: (ctx: TrainingHookContext) => {
      seen.push([ctx.metrics['val/loss'], ctx.metrics.val_loss, 'val/forces_rmse' in ctx.metrics]);
    } };
    await makeTrainer({ epochs: 2, hooks: [hook] }).fit();
    expect(seen.length).toBe(2);
    for (const [slash, underscore, has] of seen) {
      expect(typeof underscore).toBe('number');
      expect(slash).toBe(underscore);
      expect(has).toBe(true);
    }
  });

  it("filter: ['epsilon'] selects every pair's epsilon; a name that selects nothing is UNKNOWN_PARAMETER", () => {
    const gradients = { 'Ar-Ar.epsilon': 0.3, 'Ar-Ar.sigma': -0.4, 'Kr-Kr.epsilon': 0.4 };
    const monitor = new GradientMonitorHook({ filter: ['epsilon'] });
    monitor.call(ctxWith(gradients));
    expect(monitor.last?.values).toEqual({ 'Ar-Ar.epsilon': 0.3, 'Kr-Kr.epsilon': 0.4 });
    expect(monitor.last?.norm).toBeCloseTo(0.5, 15);
    const pair = new GradientMonitorHook({ filter: ['Ar-Ar'] });
    pair.call(ctxWith(gradients));
    expect(Object.keys(pair.last?.values ?? {})).toEqual(['Ar-Ar.epsilon', 'Ar-Ar.sigma']);
    expect(() => new GradientMonitorHook({ filter: ['epsilom'] }).call(ctxWith(gradients))).toThrow(expect.objectContaining({
      code: 'UNKNOWN_PARAMETER',
      message: expect.stringMatching(/filter entry "epsilom" names no parameter \(did you mean .*epsilon\?\); the parameters are Ar-Ar\.epsilon, Ar-Ar\.sigma, Kr-Kr\.epsilon/),
    }));
    expect(() => new GradientMonitorHook({ filter: /alpha/ }).call(ctxWith(gradients))).toThrow(expect.objectContaining({ code: 'UNKNOWN_PARAMETER', message: expect.stringContaining('the filter selects no parameter') }));
  });
});
