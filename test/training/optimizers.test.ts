// Optimizers and learning-rate schedulers against hand-computed torch.optim sequences, and their states.
import { describe, expect, it } from 'vitest';

import { Adam, CosineLR, ReduceOnPlateau, SGD, StepLR, optimizerFrom, schedulerFrom } from '../../lib/training/index.js';
import type { LrScheduler, Optimizer } from '../../lib/training/index.js';

function run(optimizer: Optimizer, grads: number[][], start: number[] = [0, 0]): number[][] {
  const u = Float64Array.from(start);
  return grads.map((g) => {
    optimizer.step(u, Float64Array.from(g));
    return [...u];
  });
}

describe('Adam', () => {
  it('takes torch.optim.Adam steps', () => {
    // Step 1: m̂ = g, v̂ = g², so the step is lr·g/(|g| + ε) ≈ lr·sign(g).
    const [first, second] = run(new Adam({ lr: 0.1, eps: 0 }), [[2, -0.5], [1, -0.5]]);
    expect(first).toEqual([-0.1, 0.1]);
    // Step 2, first entry: m = 0.9·0.2 + 0.1·1 = 0.28 → m̂ = 0.28/0.19; v = 0.999·0.004 + 0.001·1 = 0.004996 → v̂ = v/0.001999.
    const expected = -0.1 - (0.1 * (0.28 / 0.19)) / Math.sqrt(0.004996 / (1 - 0.999 ** 2));
    expect(second[0]).toBeCloseTo(expected, 14);
    expect(second[1]).toBeCloseTo(0.2, 14);
  });

  it('continues exactly from its state', () => {
    const grads = [[1, 2], [-1, 0.5], [0.3, 0.3], [2, -2]];
    const whole = run(new Adam({ lr: 0.01 }), grads);
    const a = new Adam({ lr: 0.01 });
    const half = run(a, grads.slice(0, 2));
    const b = new Adam({ lr: 0.01 });
    b.loadStateDict(JSON.parse(JSON.stringify(a.stateDict())));
    expect(run(b, grads.slice(2), half[1])).toEqual(whole.slice(2));
  });
});

describe('SGD', () => {
  it('takes torch.optim.SGD steps with momentum, dampening and Nesterov', () => {
    // b₁ = g₁; b₂ = 0.9·b₁ + g₂.
    const close = (actual: number[], expected: number[]): void => actual.forEach((v, k) => expect(v).toBeCloseTo(expected[k], 15));
    close(run(new SGD({ lr: 0.1, momentum: 0.9 }), [[1, 0], [1, 0]]).map((u) => u[0]), [-0.1, -0.1 - 0.1 * 1.9]);
    expect(run(new SGD({ lr: 0.1, momentum: 0.9, dampening: 0.5 }), [[1, 0], [1, 0]])[1][0]).toBeCloseTo(-0.1 - 0.1 * (0.9 + 0.5), 15);
    // Nesterov: step = g + μ·b.
    close(run(new SGD({ lr: 0.1, momentum: 0.9, nesterov: true }), [[1, 0], [1, 0]]).map((u) => u[0]), [-0.1 * 1.9, -0.19 - 0.1 * (1 + 0.9 * 1.9)]);
    expect(run(new SGD({ lr: 0.5, momentum: 0 }), [[2, 4]])[0]).toEqual([-1, -2]);
  });

  it('validates its options', () => {
    expect(() => new SGD({ lr: 0 })).toThrow(/lr must be > 0/);
    expect(() => new SGD({ momentum: 1 })).toThrow(/momentum must be ≥ 0 and < 1/);
    expect(() => new SGD({ momentum: 0, nesterov: true })).toThrow(/nesterov needs momentum > 0/);
    expect(() => optimizerFrom({ type: 'Adam', betas: [0.9] }, 'T')).toThrow(/betas must be two numbers/);
  });
});

describe('schedulers', () => {
  const lrs = (scheduler: LrScheduler, epochs: number, metrics: (epoch: number) => Record<string, number> = () => ({})): number[] => {
    const optimizer = new SGD({ lr: 1 });
    const out: number[] = [];
    for (let e = 0; e < epochs; e++) {
      out.push(optimizer.lr);
      scheduler.step(optimizer, metrics(e));
    }
    return out;
  };

  it('StepLR decays by gamma every stepSize epochs', () => {
    expect(lrs(new StepLR({ stepSize: 2, gamma: 0.5 }), 6)).toEqual([1, 1, 0.5, 0.5, 0.25, 0.25]);
  });

  it('CosineLR anneals to etaMin over tMax epochs and stays there', () => {
    const values = lrs(new CosineLR({ tMax: 4, etaMin: 0.1 }), 7);
    const expected = [0, 1, 2, 3, 4, 4, 4].map((t) => 0.1 + 0.9 * (1 + Math.cos((Math.PI * t) / 4)) / 2);
    values.forEach((v, k) => expect(v).toBeCloseTo(expected[k], 15));
  });

  it('StepLR and CosineLR are chainable as torch\'s: an lr a hook set is carried on from (issue 39, item 10)', () => {
    const optimizer = new SGD({ lr: 1 });
    const step = new StepLR({ stepSize: 2, gamma: 0.5 });
    step.step(optimizer);
    optimizer.lr = 0.3;                       // a hook changes the lr
    step.step(optimizer);                     // epoch 2: decays what the hook set
    expect(optimizer.lr).toBeCloseTo(0.15, 15);
    step.step(optimizer);
    expect(optimizer.lr).toBeCloseTo(0.15, 15);
    const sgd = new SGD({ lr: 1 });
    const cosine = new CosineLR({ tMax: 4 });
    cosine.step(sgd);
    sgd.lr /= 2;                              // halved by a hook after epoch 1
    for (let e = 2; e <= 6; e++) {
      cosine.step(sgd);
      expect(sgd.lr).toBeCloseTo(0.5 * (1 + Math.cos((Math.PI * Math.min(e, 4)) / 4)) / 2, 14);
    }
  });

  it('ReduceOnPlateau follows torch.optim.lr_scheduler.ReduceLROnPlateau', () => {
    // Threshold 1e-4 relative: 0.99995 is not better than 1; patience 1 → reduce after the 2nd bad epoch.
    const losses = [1, 0.99995, 1.2, 0.5, 0.6, 0.7, 0.8, 0.9];
    const scheduler = new ReduceOnPlateau({ patience: 1, factor: 0.5, cooldown: 1 });
    expect(lrs(scheduler, losses.length, (e) => ({ val_loss: losses[e] }))).toEqual([1, 1, 1, 0.5, 0.5, 0.5, 0.25, 0.25]);
    const min = new ReduceOnPlateau({ patience: 0, factor: 0.1, minLr: 0.05, monitor: 'score', mode: 'max' });
    expect(lrs(min, 4, () => ({ score: 1 }))).toEqual([1, 1, 0.1, 0.05]);
    expect(() => new ReduceOnPlateau().step(new SGD(), {})).toThrow(/metric 'val_loss' is not available/);
  });

  it('are built from config objects and keep their state', () => {
    const step = schedulerFrom({ type: 'StepLR', stepSize: 1, gamma: 0.5 }, 'T')!;
    const optimizer = new SGD({ lr: 1 });
    step.step(optimizer, {});
    const copy: LrScheduler = new StepLR({ stepSize: 1, gamma: 0.5 });
    copy.loadStateDict(step.stateDict());
    copy.step(optimizer, {});
    expect(optimizer.lr).toBe(0.25);
    expect(schedulerFrom(null, 'T')).toBeNull();
    expect(() => schedulerFrom({ type: 'Cosine', tMax: 2.5 }, 'T')).toThrow(/tMax must be an integer/);
  });
});
