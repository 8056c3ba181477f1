// The engine's handle on the native stepper of one batch (lib/native/stepper-binding.ts): stages as
// DynamicsStage, chunks clamped to what native `advance` takes, native hooks numbered as they are added.
// It owns the stepper's boundary: every call that lets native code read or change the batch crosses
// acrossNative (lib/data/batch.ts), so the engine never writes back or drops host views around it.
import { acrossNative, nativeBatchOf, type Batch } from '../data/index.js';
import type { NativeBinding, NativeConvergenceArgs, NativeHookArgs, NativeHookArrivals, NativeStepper } from '../native/index.js';
import { DynamicsStage, nativeStageIndex } from './stage.js';

// The most steps one native `advance` call accepts (a count below 2^31).
const MAX_NATIVE_CHUNK = 2 ** 31 - 1;

/** The native stepper bound to one batch, one model and one integrator. */
export class NativeStepperHandle {
  readonly #native: NativeStepper;
  readonly #batch: Batch;
  /** False when a JS model computes forces, so every step walks its stages from JS. */
  readonly computesNatively: boolean;
  /** How many native hooks were added: the next one's index. */
  #hooks = 0;

  constructor(binding: NativeBinding, batch: Batch, model: object | null, integrator: string, parameters: Record<string, Float64Array>, exitStatus: number) {
    this.#native = new binding.NativeStepper(nativeBatchOf(batch), model, integrator, parameters, exitStatus);
    this.#batch = batch;
    this.computesNatively = model !== null;
  }

  get stepCount(): number { return this.#native.stepCount; }
  set stepCount(step: number) { this.#native.stepCount = step; }
  /** Walks to `stage` of the current step; at ON_CONVERGE, returns whether systems newly converged. */
  runTo(stage: DynamicsStage): boolean { return acrossNative(this.#batch, () => this.#native.runTo(nativeStageIndex(stage))); }
  finishStep(): void { acrossNative(this.#batch, () => this.#native.finishStep()); }
  /** Runs the native hooks due at BEFORE_COMPUTE or AFTER_COMPUTE outside a step (around the first compute). */
  runComputeHooks(stage: DynamicsStage): void { acrossNative(this.#batch, () => this.#native.runComputeHooks(nativeStageIndex(stage))); }
  /**
   * The first compute of a run (or of a refilled batch), inside the stepper's boundary: the native compute
   * hooks of BEFORE_COMPUTE, then `jsHooks(BEFORE_COMPUTE)`, the model's `compute` (which also sets the
   * model's skin from the batch's units), the native hooks of AFTER_COMPUTE and `jsHooks(AFTER_COMPUTE)`.
   * Awaits the JS hooks and the compute only where they return a promise.
   */
  prime(compute: () => void | Promise<void>, jsHooks: (stage: DynamicsStage) => Promise<void> | undefined): Promise<void> | undefined {
    const around = (stage: DynamicsStage): Promise<void> | undefined => {
      this.runComputeHooks(stage);
      return jsHooks(stage);
    };
    const after = (): Promise<void> | undefined => {
      const computed = acrossNative(this.#batch, compute);
      return computed === undefined ? around(DynamicsStage.AFTER_COMPUTE) : computed.then(() => around(DynamicsStage.AFTER_COMPUTE));
    };
    const before = around(DynamicsStage.BEFORE_COMPUTE);
    return before === undefined ? after() : before.then(after);
  }
  /**
   * Up to `maxSteps` whole steps (any safe integer: chunks beyond what native `advance` takes are clamped,
   * and the caller loops on the steps actually taken).
   */
  advance(maxSteps: number, budgetSeconds: number, pauseOnConverge: boolean): { steps: number; pausedOnConverge: boolean } {
    return acrossNative(this.#batch, () => this.#native.advance(Math.min(maxSteps, MAX_NATIVE_CHUNK), budgetSeconds, pauseOnConverge));
  }
  newlyConverged(): Uint8Array { return this.#native.newlyConverged(); }
  /** For each newly converged system, the status it converged from (its FusedStage sub-stage); -1 elsewhere. */
  newlyFrom(): Int32Array { return this.#native.newlyFrom(); }
  /** Per system, the last step at which a convergence check moved it (−1: none has), on either stepping path. */
  convergedAt(): Float64Array { return this.#native.convergedAt(); }
  /** Whether the last compute evaluated the stress. */
  stressComputed(): boolean { return this.#native.stressComputed(); }
  /** The compute of the current (or next) step also evaluates the stress. */
  requestStress(): void { this.#native.requestStress(); }
  allConverged(): boolean { return this.#native.allConverged(); }
  /** Adds a native hook; returns its index, by which remap's `arrivals` name it. */
  addHook(spec: NativeHookArgs): number {
    this.#native.addHook(spec);
    return this.#hooks++;
  }
  addConvergence(spec: NativeConvergenceArgs): void { this.#native.addConvergence(spec); }
  updateParameters(parameters: Record<string, Float64Array>): void { this.#native.updateParameters(parameters); }
  /** Per system, the steps it has taken in each FusedStage sub-stage (one row of counts per system); empty elsewhere. */
  stageSteps(): Float64Array { return this.#native.stageSteps(); }
  state(): Float64Array { return this.#native.state(); }
  loadState(state: Float64Array): void { acrossNative(this.#batch, () => this.#native.loadState(state)); }
  /**
   * After a refill: keeps systems `keep`, appends `added`; `arrivals`, indexed as the hooks were added, brings
   * a hook the refilled batch's data (undefined for a hook that remaps on its own).
   */
  remap(keep: Int32Array, added: number, arrivals?: ReadonlyMap<number, NativeHookArrivals>): void {
    const list = arrivals === undefined || arrivals.size === 0 ? undefined : Array.from({ length: this.#hooks }, (_, k) => arrivals.get(k));
    acrossNative(this.#batch, () => this.#native.remap(keep, added, list));
  }
}
