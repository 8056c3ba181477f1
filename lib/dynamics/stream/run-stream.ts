// runStream (docs/dynamics.md, "Streaming"): systems flow from a source through one batch that is kept full,
// and leave for the sinks when they converge or reach maxSteps. Between refills the engine steps with its one
// step loop (StreamEngine.steps, the loop run() takes).
import { acrossNative, Batch, type System } from '../../data/index.js';
import { HookRunner, RunControl } from '../../hooks/index.js';
import { settleAsync } from '../../hooks/lifecycle.js';
import type { EngineRun } from '../engine-run.js';
import { Pacer } from '../engine-run.js';
import type { DynamicsHookContext } from '../hook-context.js';
import { HookTiers } from '../hook-tiers.js';
import { DynamicsStage } from '../stage.js';
import { observeStates } from '../state-observers.js';
import type { StepCounter } from '../step-walker.js';
import { StreamConstraints } from './constraints.js';
import { StreamFlight, type StreamFailure } from './flight.js';
import { checkStreamOptions, type CheckedStreamOptions, type StreamOptions, type StreamResult } from './options.js';
import { StreamOutput } from './output.js';
import { SourceFailure, StreamSource, type SystemSource } from './source.js';
import type { StreamEngine } from './stream-engine.js';

/** What runStream's option check says of the run options a stream does not take. */
export interface StreamAdvice {
  readonly fmax: string;
  readonly budget: number;
}

/** Streams `source` through `engine` (Dynamics.runStream). */
export async function runStream(engine: StreamEngine, source: SystemSource, options: StreamOptions, advice: StreamAdvice): Promise<StreamResult> {
  const owner = `${engine.name}.runStream`;
  const opts = checkStreamOptions(options, owner, { fmax: advice.fmax, steps: 'a stream runs until its source is empty: maxSteps caps the steps of each system' });
  const input = new StreamSource(source);
  const output = new StreamOutput(opts.sinks, opts.restoreOrder);
  const flight = new StreamFlight(opts.units, engine.exitStatus);
  const held = new StreamConstraints(owner);
  const counter = engine.startCounter();
  const startStep = counter.value;
  let failure: StreamFailure | undefined;
  try {
    const first = await pull(input, flight, held, opts.maxAtoms, opts.maxSystems, true);
    if (first.length > 0) {
      const batch = admit(flight, () => Batch.fromSystems(first, { units: opts.units }));
      sourceStatus(batch, 0, first);
      engine.refuseColdStart(batch, owner);
      await stream(engine, batch, { input, output, flight, held, opts, counter, owner, pacer: new Pacer(advice.budget) });
    }
  } catch (error) {
    // While the sinks work, the batch's systems are written as they stand; every system pulled from the
    // source that did not reach every sink comes back with the error.
    // A sink that fails now keeps what it refused in pending; the first failure is the one reported.
    if (!output.failed) await flight.settle(output, counter.value).catch(() => undefined);
    failure = flight.fail(error, output, input, counter.value, owner);
  }
  // Closing flushes what the sinks hold; after a failure, the failure is what the caller needs to see.
  for (const close of [() => input.close(), () => output.close()]) {
    try {
      await close();
    } catch (error) {
      failure ??= flight.fail(error, output, input, counter.value, owner);
    }
  }
  if (failure !== undefined) throw failure;
  const steps = counter.value - startStep;
  return { processed: output.processed, converged: output.converged, unconverged: output.processed - output.converged, steps };
}

// The parts of one stream.
interface StreamParts {
  readonly input: StreamSource;
  readonly output: StreamOutput;
  readonly flight: StreamFlight;
  readonly held: StreamConstraints;
  readonly opts: CheckedStreamOptions;
  readonly counter: StepCounter;
  readonly owner: string;
  readonly pacer: Pacer;
}

/** Takes systems from the source; they count as in flight (StreamFlight) until the batch admits them. */
async function pull(input: StreamSource, flight: StreamFlight, held: StreamConstraints, freeAtoms: number, freeSystems: number, mustTake: boolean): Promise<System[]> {
  try {
    const taken = await input.take(freeAtoms, freeSystems, mustTake);
    flight.arrive(taken, input);
    held.arrive(taken);
    return taken;
  } catch (error) {
    if (error instanceof SourceFailure) flight.arrive(error.taken, input);
    throw error;
  }
}

/**
 * Builds or refills the batch with the arriving systems. A system the batch refuses fails the stream with
 * that system's own error, naming its position in the source; the valid ones stay in flight.
 */
function admit<T>(flight: StreamFlight, build: () => T): T {
  let result: T;
  try {
    flight.checkStatuses();
    result = build();
  } catch (error) {
    // Validation stops at the first bad system of the whole call; name it by its place in the source.
    throw flight.firstInvalid() ?? error;
  }
  flight.admitted();
  return result;
}

async function stream(engine: StreamEngine, batch: Batch, p: StreamParts): Promise<void> {
  const { input, output, flight, held, opts, counter, owner } = p;
  const { enteredAt } = flight;
  flight.batch = batch;
  const convergedAt = new Map<number, number>();
  const entered = (): void => batch.read('systemId').forEach((id) => { if (!enteredAt.has(id)) enteredAt.set(id, counter.value); });
  entered();
  // Convergence steps are exact: the engine pauses at ON_CONVERGE, which only happens when systems converge.
  const tracker = HookTiers.register(engine.tiers.own, {
    stage: DynamicsStage.ON_CONVERGE, frequency: 1, name: 'runStream:convergence',
    call: (ctx: DynamicsHookContext) => {
      const ids = ctx.batch.read('systemId');
      ctx.convergedMask?.forEach((newly, s) => { if (newly === 1) convergedAt.set(ids[s], ctx.stepCount); });
    },
  });
  const control = new RunControl();
  const ctx = engine.claim(batch, control, counter);
  const runner = new HookRunner<DynamicsHookContext>(engine.tiers.registries(), { context: () => ctx });
  try {
    await runner.run(async () => {
      const run = engine.begin(ctx, control, counter, owner);
      const { stepper } = run;
      held.bind(stepper, batch);
      engine.holdFixed(run, held);
      await engine.prime(run);
      await observeStates(engine.tiers, ctx, counter.value, null, false, owner);
      for (;;) {
        await settleAsync(engine.steps(run, opts.refillEvery, !stepper.allConverged(), opts.signal, p.pacer));
        const stopping = control.stopRequested;
        const keep = await graduate(engine, run, p, convergedAt, stopping ? Infinity : opts.maxSteps, stopping);
        if (stopping) return flight.leaveUnstarted(output, input);
        const kept = batch.read('numAtoms');
        const keptAtoms = keep.reduce((sum, s) => sum + kept[s], 0);
        const added = await pull(input, flight, held, opts.maxAtoms - keptAtoms, opts.maxSystems - keep.length, keep.length === 0);
        if (keep.length === 0 && added.length === 0) return;
        if (keep.length === batch.numSystems && added.length === 0) continue;
        const ptr = batch.read('ptr').slice();
        admit(flight, () => batch.refill(keep, added));
        sourceStatus(batch, keep.length, added);
        engine.refuseColdStart(batch, owner, keep.length);
        engine.rebind(run, keep, added.length, held, ptr);
        engine.holdFixed(run, held);
        await engine.prime(run);
        entered();
        const entering = Uint8Array.from({ length: batch.numSystems }, (_, s) => (s >= keep.length ? 1 : 0));
        if (added.length > 0) await observeStates(engine.tiers, ctx, counter.value, entering, false, owner);
      }
    });
  } finally {
    tracker.remove();
  }
}

/** Sends systems that converged (or ran out of steps, or all when `everything`) to the output; returns the rest. */
async function graduate(engine: StreamEngine, run: EngineRun, p: StreamParts, convergedAt: Map<number, number>, maxSteps: number, everything: boolean): Promise<number[]> {
  const { batch, ctx } = run;
  const { flight, output } = p;
  const now = p.counter.value;
  const status = batch.read('status');
  const ids = batch.read('systemId');
  const leaving: number[] = [];
  const keep: number[] = [];
  for (let s = 0; s < batch.numSystems; s++) {
    const done = status[s] >= engine.exitStatus || now - (flight.enteredAt.get(ids[s]) ?? now) >= maxSteps;
    (done || everything ? leaving : keep).push(s);
  }
  if (leaving.length === 0) return keep;
  // Logs and trajectories get each leaving system's last state (docs/dynamics.md, "Logs and trajectories").
  const mask = new Uint8Array(batch.numSystems);
  for (const s of leaving) mask[s] = 1;
  await observeStates(engine.tiers, ctx, now, mask, false, p.owner);
  // Sinks that need the stress get it for the positions the systems leave with (docs/pipeline.md).
  if (output.needsStress && !batch.resultValid('stress').every((valid, s) => valid === 1 || !leaving.includes(s))) {
    await acrossNative(batch, () => engine.model.compute(batch, { stress: true }));
  }
  const systems = batch.toSystems(leaving);
  const graduates = leaving.map((s, k) => {
    const system = systems[k];
    system.info = flight.leaveInfo(system.info, ids[s], status[s], now, convergedAt.get(ids[s]));
    flight.enteredAt.delete(ids[s]);
    convergedAt.delete(ids[s]);
    flight.graduated.add(ids[s]);
    return system;
  });
  await output.emit(graduates);
  return keep;
}

/**
 * Systems a stream takes keep a status their source gave them (`info.status`, an integer that StreamFlight
 * checked before admission), as nvalchemi's samplers do; the others start at 0. `offset` is the batch
 * index of the first of `systems`.
 */
function sourceStatus(batch: Batch, offset: number, systems: readonly System[]): void {
  systems.forEach((system, k) => {
    const status = system.info?.status;
    // Checked before the batch admitted the system (StreamFlight.checkStatuses).
    if (status !== undefined) batch.status[offset + k] = status as number;
  });
}
