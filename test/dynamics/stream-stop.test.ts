// Issue 39, item 17: a stream that stops early (ctx.requestStop or an aborted signal) resolves normally and
// writes every system it pulled from its source exactly once: those in the batch, flagged converged: false,
// and the look-ahead, the system pulled for the next refill that never entered the batch (steps: 0).
import { describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { ConvergenceHook, DynamicsStage, FIRE } from '../../lib/dynamics/index.js';
import { HostMemorySink } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { range, source } from './stream-sources.js';

const fire = (): FIRE => new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 }), convergence: ConvergenceHook.fromFmax(1e-8) });
const options = { maxAtoms: 24, refillEvery: 3, maxSteps: 1000, units: 'lj' as const };
const ids = (systems: readonly System[]): number[] => systems.map((s) => s.info?.systemId as number).sort((a, b) => a - b);

describe('runStream stopped early writes every system it pulled', () => {
  it('requestStop: the batch and the look-ahead reach the sink, and processed counts them', async () => {
    const sink = new HostMemorySink();
    const engine = fire();
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, name: 'stopper', call: (ctx) => { if (ctx.stepCount === 4) ctx.requestStop('enough'); } });
    const input = source(40);
    const result = await engine.runStream(input.systems, { ...options, sinks: [sink] });
    const written = sink.read();
    expect(ids(written)).toEqual(range(input.yielded()));
    expect(result.processed).toBe(input.yielded());
    const lookahead = written.find((s) => s.info?.systemId === input.yielded() - 1) as System;
    expect(lookahead.info).toMatchObject({ converged: false, steps: 0, tag: input.yielded() - 1 });
    expect(lookahead.energy).toBeUndefined();
  });

  it('an aborted signal: the same', async () => {
    const sink = new HostMemorySink();
    const controller = new AbortController();
    const engine = fire();
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, name: 'aborter', call: (ctx) => { if (ctx.stepCount === 8) controller.abort('user'); } });
    const input = source(40);
    const result = await engine.runStream(input.systems, { ...options, sinks: [sink], signal: controller.signal });
    expect(ids(sink.read())).toEqual(range(input.yielded()));
    expect(result.processed).toBe(input.yielded());
    expect(result.converged).toBe(0);
  });

  it('an invalid look-ahead at a stop is its own error, after the batch reached the sink', async () => {
    const sink = new HostMemorySink();
    const engine = fire();
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, name: 'stopper', call: (ctx) => ctx.requestStop('now') });
    // The first fill takes systems 0–5 (22 atoms); system 6 (3 atoms) is the look-ahead.
    const input = source(40, (i) => (i === 6 ? { symbols: ['Ar', 'Ar', 'Ar'], positions: [[NaN, 0, 0], [1.3, 0, 0], [2.6, 0, 0]] } : undefined));
    const error = await engine.runStream(input.systems, { ...options, sinks: [sink] }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_POSITIONS', message: expect.stringMatching(/^runStream: systems\[6\]/) });
    expect(ids(sink.read())).toEqual(range(6));
  });
});
