// SnapshotHook and ConvergedSnapshotHook (docs/dynamics.md): write systems of the running batch to a Sink.
import { unitSystem } from '../../data/index.js';
import type { Batch, System } from '../../data/index.js';
import { HookmdError, HookmdTypeError, isHookmdError } from '../../errors.js';
import { registerHookType } from '../../hooks/index.js';
import type { DynamicsContext } from '../../hooks/index.js';
import { openSink, type Sink } from '../../io/index.js';
import { sinkWriteFailed } from '../../io/sinks/sink.js';
import { withoutRunInfo } from '../run-info.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';
import { dynamicsStageOption, multiplesOf } from './logging-hook.js';
import { stepsTaken } from '../state-observers.js';
import type { Trigger } from '../../hooks/index.js';
import { checkKeys } from '../../option-keys.js';

/** Options shared by the snapshot hooks. */
export interface SnapshotSinkOptions {
  /** Where systems go. Give this or `path`. */
  sink?: Sink;
  /** A file for `openSink` (.xyz, .extxyz, .zarr, .traj, .lammpstrj, .dump, .h5md or .h5); the hook then owns the sink it opens. */
  path?: string;
  /** Buffer size of the sink opened for `path`. */
  capacity?: number;
  /** Units of the runs, for the sink opened for `path` (default 'metal'); a batch in others is UNITS_MISMATCH. */
  units?: 'metal' | 'lj';
  /**
   * Whether the hook closes its sink when a run ends (default true, for `sink` and `path` alike), so that
   * what it wrote is in storage, finalized, when `run()` returns. With false the sink is flushed instead
   * and stays open for later runs; close it yourself.
   */
  ownsSink?: boolean;
  name?: string;
}

// The options both snapshot hooks take (SnapshotSinkOptions).
const SINK_KEYS: readonly string[] = ['sink', 'path', 'capacity', 'units', 'ownsSink', 'name'];

/** Options of `new SnapshotHook`. */
export interface SnapshotHookOptions extends SnapshotSinkOptions {
  /** Snapshot the state after every multiple of `frequency` steps (default 1). */
  frequency?: number;
  /** The stage to snapshot at, as a value or a name (default AFTER_STEP: the frame of step n is the state after n steps). */
  stage?: DynamicsStage | keyof typeof DynamicsStage;
}

type Context = DynamicsContext<Batch, unknown, DynamicsStage>;

/** The sink a hook writes to, with its ownership and the wrapping of failures. */
class SinkBinding {
  readonly sink: Sink;
  readonly owns: boolean;
  readonly #label: string;
  // The units the hook opened its file sink for (extxyz converts velocities by units).
  readonly #units: string | undefined;

  constructor(owner: string, options: SnapshotSinkOptions) {
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: options must be an object`, { field: 'options', value: options });
    }
    const { sink, path } = options;
    if ((sink === undefined) === (path === undefined)) {
      throw new HookmdTypeError('INVALID_SINK', `${owner}: give exactly one of sink or path`, { field: 'sink', value: sink });
    }
    if (sink !== undefined && (sink === null || typeof sink.write !== 'function' || typeof sink.close !== 'function')) {
      throw new HookmdTypeError('INVALID_SINK', `${owner}: sink must implement the Sink interface (write, drain, close)`, {
        field: 'sink',
        value: sink,
      });
    }
    this.#units = path === undefined ? undefined : unitSystem(options.units ?? 'metal').name;
    this.sink = sink ?? openSink(path as string, { capacity: options.capacity, units: this.#units as 'metal' | 'lj' });
    this.owns = options.ownsSink ?? true;
    this.#label = this.sink.constructor?.name ?? 'Sink';
  }

  /** Writes; a failure that is not already a typed hookmd error becomes SINK_WRITE_FAILED. */
  write(systems: System[], batch: Batch): void | Promise<void> {
    if (this.#units !== undefined && batch.units.name !== this.#units) {
      const message = `${this.#label}: the batch is in ${batch.units.name} units, the sink was opened for ${this.#units}; pass units`;
      throw new HookmdError('UNITS_MISMATCH', message, { field: 'units', value: batch.units.name });
    }
    let pending: void | Promise<void>;
    try {
      pending = this.sink.write(systems);
    } catch (error) {
      throw this.#wrap(error);
    }
    if (pending === undefined || typeof (pending as PromiseLike<void>).then !== 'function') return undefined;
    return Promise.resolve(pending).catch((error: unknown) => Promise.reject(this.#wrap(error)));
  }

  /** At the end of a run: closes an owned sink, flushes one that stays open. */
  finish(): void | Promise<void> {
    return this.owns ? this.sink.close() : this.sink.flush?.();
  }

  #wrap(error: unknown): unknown {
    return isHookmdError(error) ? error : sinkWriteFailed(this.#label, error);
  }
}

/**
 * The systems at `indices` of the context's batch (all by default), with `info.step` = `step`; an earlier
 * run's converged, steps and status (a relaxed input's) are not this run's, and are left out.
 */
function snapshot(ctx: Context, step: number, extra: Record<string, unknown>, indices?: number[]): System[] {
  const batch = indices === undefined ? ctx.batch : ctx.batch.select(indices);
  const ids = batch.read('systemId');
  return batch.toSystems().map((system, s) => ({ ...system, info: { ...withoutRunInfo(system.info), systemId: ids[s], step, ...extra } }));
}

/**
 * Writes every system of the batch (`batch.toSystems()`, results included, with `info.systemId`
 * and `info.step`, the steps taken) to a sink, as LAMMPS's dumps and ASE's trajectories do: the state a run
 * starts from (frame 0 of a first run: the input), the state after every multiple of `frequency` steps,
 * and the state the run ends in (its last step, always); in runStream also as each system enters and
 * leaves the batch. A state is written once, however many of these fall on it. When the run ends the hook closes its sink, so the
 * file or store is complete when `run()` returns; with `ownsSink: false` it flushes the sink instead and
 * leaves it open for later runs. Async sinks (file sinks) need `run()`, not `runSync()`.
 *
 * @example
 * await new VelocityVerlet({ model, dt: 1, hooks: [new SnapshotHook({ sink: new ZarrSink('md.zarr'), frequency: 100 })] }).run(batch, { steps: 10_000 });
 * const frames = await readZarr('md.zarr');
 */
export class SnapshotHook {
  readonly stage: DynamicsStage;
  readonly frequency: number;
  /** Fires when the state at its stage is that after a multiple of `frequency` steps. */
  readonly trigger: Trigger | undefined;
  readonly name: string;
  readonly #binding: SinkBinding;
  /** The step of each system's last frame (by systemId), so a state is written once. */
  readonly #written = new Map<number, number>();

  constructor(options: SnapshotHookOptions) {
    this.#binding = new SinkBinding('SnapshotHook', options);
    checkKeys('SnapshotHook', options, [...SINK_KEYS, 'frequency', 'stage']);
    this.stage = dynamicsStageOption('SnapshotHook', options.stage, DynamicsStage.AFTER_STEP);
    this.frequency = checkFrequency('SnapshotHook', options.frequency ?? 1);
    this.trigger = multiplesOf(this.stage, this.frequency);
    this.name = options.name ?? 'SnapshotHook';
  }

  /** The sink written to. */
  get sink(): Sink {
    return this.#binding.sink;
  }

  /** What the sink needs (`['stress']` makes the engine compute the stress on the steps it snapshots). */
  get needs(): readonly string[] {
    return (this.#binding.sink as { needs?: readonly string[] }).needs ?? [];
  }

  call(ctx: Context): void | Promise<void> {
    return this.#write(ctx, stepsTaken(ctx.stage, ctx.stepCount), null);
  }

  /** The state a run starts or ends in (frames of `ctx.stepCount` steps), for the systems in `systems` (null: all). */
  observeState(ctx: Context, systems: Uint8Array | null): void | Promise<void> {
    return this.#write(ctx, ctx.stepCount, systems);
  }

  #write(ctx: Context, step: number, systems: Uint8Array | null): void | Promise<void> {
    const ids = ctx.batch.read('systemId');
    const indices: number[] = [];
    ids.forEach((id, s) => {
      if ((systems !== null && systems[s] === 0) || this.#written.get(id) === step) return;
      this.#written.set(id, step);
      indices.push(s);
    });
    if (indices.length === 0) return undefined;
    return this.#binding.write(snapshot(ctx, step, {}, indices.length === ids.length ? undefined : indices), ctx.batch);
  }

  /** Closes the sink, or flushes it with `ownsSink: false` (run automatically when a run ends). */
  close(): void | Promise<void> {
    return this.#binding.finish();
  }
}

/**
 * At ON_CONVERGE, writes the systems that converged in that step (those of `ctx.convergedMask`),
 * with `info.systemId`, `info.step` and `info.converged = true`. The sink is closed (or, with
 * `ownsSink: false`, flushed) when the run ends, as in SnapshotHook.
 *
 * @example
 * const relaxed = new HostMemorySink();
 * const fire = new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.05), hooks: [new ConvergedSnapshotHook({ sink: relaxed })] });
 * await fire.run(batch, { steps: 1000 });
 * relaxed.read(); // one System per converged system, in convergence order
 */
export class ConvergedSnapshotHook {
  readonly stage: DynamicsStage = DynamicsStage.ON_CONVERGE;
  readonly frequency = 1;
  readonly name: string;
  readonly #binding: SinkBinding;

  constructor(options: SnapshotSinkOptions) {
    this.#binding = new SinkBinding('ConvergedSnapshotHook', options);
    checkKeys('ConvergedSnapshotHook', options, SINK_KEYS);
    this.name = options.name ?? 'ConvergedSnapshotHook';
  }

  /** The sink written to. */
  get sink(): Sink {
    return this.#binding.sink;
  }

  call(ctx: Context): void | Promise<void> {
    const mask = ctx.convergedMask;
    const indices: number[] = [];
    mask?.forEach((flag, s) => {
      if (flag) indices.push(s);
    });
    if (indices.length === 0) return undefined;
    // The system converged in step k: the state written is the one after k + 1 steps.
    return this.#binding.write(snapshot(ctx, ctx.stepCount + 1, { converged: true }, indices), ctx.batch);
  }

  /** Closes the sink, or flushes it with `ownsSink: false` (run automatically when a run ends). */
  close(): void | Promise<void> {
    return this.#binding.finish();
  }
}

registerHookType('SnapshotHook', (args) => new SnapshotHook(args as SnapshotHookOptions));
registerHookType('ConvergedSnapshotHook', (args) => new ConvergedSnapshotHook(args as SnapshotSinkOptions));
