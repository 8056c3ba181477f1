// Issue 27, item 4: when runStream rejects, every valid system it had pulled from its source either
// reached the sinks or comes back in the error's `pending` list (exactly once), whatever failed: a bad input
// system, the source itself, a hook, or a sink. Issue 39, items 11 and 17: while the sinks work, the systems
// in the batch are written to them (converged: false) before the stream rejects; the look-ahead comes back.
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { ConvergenceHook, DynamicsStage, FIRE, type StreamFailure } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { chain, range, source } from './stream-sources.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 });
// A tight fmax keeps systems in flight for many steps, so failures find the batch full.
const fire = (): FIRE => new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-8) });

class Sink {
  readonly systems: System[] = [];
  constructor(readonly failOnWrite = 0) {}
  #writes = 0;
  write(systems: readonly System[]): void {
    if (++this.#writes === this.failOnWrite) throw new Error('downstream is gone');
    this.systems.push(...systems);
  }
}

async function failure(run: Promise<unknown>): Promise<StreamFailure> {
  const error = await run.then(() => undefined, (e: unknown) => e);
  expect(error).toBeDefined();
  return error as StreamFailure;
}

/** Every id in `expected` appears exactly once across the sink and the pending list, and nothing else does. */
function expectAccounted(sink: System[], pending: readonly System[], expected: number[]): void {
  const ids = [...sink, ...pending].map((s) => s.info?.systemId as number).sort((a, b) => a - b);
  expect(ids).toEqual(expected);
  for (const system of [...sink, ...pending]) expect(system.info?.tag).toBe(system.info?.systemId);
  // Pending systems are whole systems: a new batch (or a new stream) takes them as they are.
  if (pending.length > 0) expect(Batch.fromSystems([...pending], { units: 'lj' }).numSystems).toBe(pending.length);
}

const options = { maxAtoms: 24, refillEvery: 3, maxSteps: 40, units: 'lj' as const };

describe('runStream loses no system when it rejects', () => {
  it('a NaN input in mid-stream: its own error naming its source position; the valid systems in flight come back', async () => {
    const sink = new Sink();
    const input = source(40, (i) => (i === 11 ? { symbols: ['Ar'], positions: [[NaN, 0, 0]], info: { tag: 11 } } : undefined));
    const error = await failure(fire().runStream(input.systems, { ...options, sinks: [sink] }));
    expect(error).toMatchObject({ code: 'INVALID_POSITIONS', message: expect.stringMatching(/^runStream: systems\[11\]\.positions\[0\]\[0\] is NaN/) });
    expect(error.pending.length).toBeGreaterThan(0);
    expectAccounted(sink.systems, error.pending, range(input.yielded(), 11));
  });

  it('a bad input among the first systems: nothing has run, everything valid comes back', async () => {
    const input = source(10, (i) => (i === 2 ? { symbols: ['Xx'], positions: [[0, 0, 0]], info: { tag: 2 } } : undefined));
    const error = await failure(fire().runStream(input.systems, { ...options, sinks: [] }));
    expect(error.code).toBe('UNKNOWN_ELEMENT');
    expectAccounted([], error.pending, range(input.yielded(), 2));
  });

  it('a source that throws: SOURCE_FAILED with the cause; what it had yielded reaches the sink or comes back', async () => {
    const sink = new Sink();
    const boom = new Error('the database went away');
    const input = source(40, (i) => {
      if (i === 17) throw boom;
      return undefined;
    });
    const error = await failure(fire().runStream(input.systems, { ...options, sinks: [sink] }));
    expect(error).toMatchObject({ code: 'SOURCE_FAILED', cause: boom, message: expect.stringMatching(/the database went away/) });
    expectAccounted(sink.systems, error.pending, range(17));
  });

  it('an async source that rejects', async () => {
    const sink = new Sink();
    async function* systems(): AsyncGenerator<System> {
      for (let i = 0; i < 9; i++) yield chain(i);
      throw new Error('stream reset');
    }
    const error = await failure(fire().runStream(systems(), { ...options, sinks: [sink] }));
    expect(error.code).toBe('SOURCE_FAILED');
    expectAccounted(sink.systems, error.pending, range(9));
  });

  it('a hook that throws mid-run: HOOK_FAILED, and the systems in the batch come back as they stand', async () => {
    const sink = new Sink();
    const engine = fire();
    let calls = 0;
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, name: 'flaky', call: () => { if (++calls === 60) throw new Error('flaky hook'); } });
    const input = source(40);
    const error = await failure(engine.runStream(input.systems, { ...options, sinks: [sink] }));
    expect(error.code).toBe('HOOK_FAILED');
    expect(sink.systems.length).toBeGreaterThan(0);
    expectAccounted(sink.systems, error.pending, range(input.yielded()));
    for (const system of error.pending) {
      if (system.info?.steps === undefined) continue;
      expect(system.info).toMatchObject({ converged: false });
    }
  });

  it('a sink that fails: SINK_WRITE_FAILED; the systems of the failed write, and all others in flight, come back', async () => {
    const good = new Sink();
    const failing = new Sink(3);
    const input = source(40);
    const error = await failure(fire().runStream(input.systems, { ...options, sinks: [good, failing] }));
    expect(error.code).toBe('SINK_WRITE_FAILED');
    // The failing sink holds what it accepted; everything else pulled is pending (the good sink may hold some of those too).
    expectAccounted(failing.systems, error.pending, range(input.yielded()));
  });

  it('with restoreOrder, systems held back for their turn come back too', async () => {
    const sink = new Sink();
    const input = source(40, (i) => (i === 23 ? { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, Infinity]], info: { tag: 23 } } : undefined));
    const error = await failure(fire().runStream(input.systems, { ...options, sinks: [sink], restoreOrder: true }));
    expect(error.code).toBe('INVALID_POSITIONS');
    expectAccounted(sink.systems, error.pending, range(input.yielded(), 23));
    expect(sink.systems.map((s) => s.info?.systemId)).toEqual(range(sink.systems.length));
  });

  it('the pending systems finish in a second stream', async () => {
    const first = new Sink();
    const input = source(30, (i) => (i === 12 ? { symbols: ['Ar'], positions: [[0, NaN, 0]], info: { tag: 12 } } : undefined));
    const error = await failure(fire().runStream(input.systems, { ...options, sinks: [first] }));
    const second = new Sink();
    const retry = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-3) });
    const result = await retry.runStream(error.pending, { ...options, maxSteps: 5000, sinks: [second] });
    expect(result.processed).toBe(error.pending.length);
    const tags = (systems: readonly System[]): number[] => systems.map((s) => s.info?.tag as number).sort((a, b) => a - b);
    expect(tags(second.systems)).toEqual(tags(error.pending));
  });
});

describe('runStream writes the systems in the batch before it rejects (issue 39, items 11 and 17)', () => {
  /** The systemIds in flight when the stream failed: every pulled id but those the sink got from graduations. */
  const unfinished = (sink: System[]): System[] => sink.filter((s) => s.info?.converged === false);

  it('an invalid input mid-stream: a plain { write } sink receives the valid systems of the batch, flagged converged: false', async () => {
    const written: System[] = [];
    const sink = { write(systems: readonly System[]): void { written.push(...systems); } };
    const input = source(40, (i) => (i === 11 ? { symbols: ['Ar'], positions: [[NaN, 0, 0]], info: { tag: 11 } } : undefined));
    const error = await failure(fire().runStream(input.systems, { ...options, maxSteps: 1000, sinks: [sink] }));
    expect(error.code).toBe('INVALID_POSITIONS');
    // Nothing converges at fmax 1e-8 within the run, so every system that had entered the batch is written as unfinished.
    const ids = unfinished(written).map((s) => s.info?.systemId as number).sort((a, b) => a - b);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id < 11)).toBe(true);
    for (const system of unfinished(written)) expect(system.info).toMatchObject({ converged: false, steps: expect.any(Number) });
    // Pending holds only the valid systems that never entered the batch (pulled with the bad one, and the look-ahead).
    expect(error.pending.length).toBeGreaterThan(0);
    for (const system of error.pending) expect(system.info?.steps).toBeUndefined();
    expectAccounted(written, error.pending, range(input.yielded(), 11));
  });

  it('a hook that throws: the batch reaches the sink; the look-ahead system comes back in pending', async () => {
    const sink = new Sink();
    const engine = fire();
    let calls = 0;
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, name: 'flaky', call: () => { if (++calls === 7) throw new Error('flaky hook'); } });
    const input = source(40);
    const error = await failure(engine.runStream(input.systems, { ...options, maxSteps: 1000, sinks: [sink] }));
    expect(error.code).toBe('HOOK_FAILED');
    // The first refill has not happened: the batch is the first fill, and the source's look-ahead was pulled.
    expect(error.pending.map((s) => s.info?.systemId)).toEqual([input.yielded() - 1]);
    expectAccounted(sink.systems, error.pending, range(input.yielded()));
  });

  it('a sink that fails on its first write: the batch and the look-ahead come back in pending', async () => {
    const failing = new Sink(1);
    const input = source(40);
    const error = await failure(fire().runStream(input.systems, { ...options, maxSteps: 3, sinks: [failing] }));
    expect(error.code).toBe('SINK_WRITE_FAILED');
    expect(failing.systems).toEqual([]);
    expectAccounted([], error.pending, range(input.yielded()));
  });
});
