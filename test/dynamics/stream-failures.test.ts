// Issue 27, item 4: when runStream rejects, every valid system it had pulled from its source either
// reached the sinks or comes back in the error's `pending` list (exactly once), whatever failed: a bad input
// system, the source itself, a hook, or a sink.
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { ConvergenceHook, DynamicsStage, FIRE, type StreamFailure } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';

/** A stretched LJ chain of 2–6 atoms, tagged with its position in the source. */
function chain(index: number): System {
  const n = 2 + (index % 5);
  const positions = Array.from({ length: n }, (_, k) => [1.3 * k, 0.2 * Math.sin(index + k), 0.2 * Math.cos(2 * index + k)]);
  return { symbols: Array(n).fill('Ar'), positions, info: { tag: index } };
}

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

/** A source of `count` chains that counts what it handed out; `replace(i)` swaps in another system or throws. */
function source(count: number, replace: (i: number) => System | undefined = () => undefined): { systems: Generator<System>; yielded: () => number } {
  let yielded = 0;
  function* systems(): Generator<System> {
    for (let i = 0; i < count; i++) {
      const system = replace(i) ?? chain(i);
      yielded++;
      yield system;
    }
  }
  return { systems: systems(), yielded: () => yielded };
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

const range = (n: number, skip = -1): number[] => Array.from({ length: n }, (_, i) => i).filter((i) => i !== skip);
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
