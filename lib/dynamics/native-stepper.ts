// A typed handle on the native stepping loop (native/cpp/dynamics/Stepper.h) for one batch.
import type { NativeBatch, NativeBinding } from '../native/index.js';
import { nativeStageIndex, type DynamicsStage } from './stage.js';

// The most steps one native `advance` call accepts (a count below 2^31).
const MAX_NATIVE_CHUNK = 2 ** 31 - 1;

/** A native hook as the stepper takes it. */
export interface NativeHookArgs {
  type: string;
  stageMask: number;
  frequency: number;
  phase: number;
  value?: number;
  mask?: Uint8Array;
  values?: Float64Array;
}

/** The data a refill brings a native hook whose data name atoms or systems (Stepper::remap's arrivals). */
export interface NativeHookArrivals {
  /** One flag per atom of the refilled batch (a FreezeAtomsHook's fixed atoms). */
  mask?: Uint8Array;
  /** The added systems' data in the hook's layout (FixSymmetry's operations). */
  values?: Float64Array;
}

/** A native convergence check. */
export interface NativeConvergenceArgs {
  criteria: Array<{ key: string; threshold: number; op: string; target?: number }>;
  frequency: number;
  phase: number;
  /** null: every system, whatever its status (detect-only checks only). */
  sourceStatus: number | null;
  /** null: detect-only (converged systems keep their status). */
  targetStatus: number | null;
}

interface NativeStepper {
  runTo(stage: number): boolean;
  finishStep(): void;
  runComputeHooks(stage: number): void;
  advance(maxSteps: number, budgetSeconds: number, pauseOnConverge: boolean): { steps: number; pausedOnConverge: boolean };
  newlyConverged(): Uint8Array;
  newlyFrom(): Int32Array;
  convergedAt(): Float64Array;
  stressComputed(): boolean;
  requestStress(): void;
  allConverged(): boolean;
  addHook(spec: NativeHookArgs): void;
  addConvergence(spec: NativeConvergenceArgs): void;
  updateParameters(parameters: Record<string, Float64Array>): void;
  stageSteps(): Float64Array;
  state(): Float64Array;
  loadState(state: Float64Array): void;
  remap(keep: Int32Array, added: number, arrivals?: ReadonlyArray<NativeHookArrivals | undefined>): void;
  stepCount: number;
  readonly cursor: number;
}

type StepperConstructor = new (
  batch: NativeBatch,
  model: object | null,
  integrator: string,
  parameters: Record<string, Float64Array>,
  exitStatus: number,
) => NativeStepper;

/** The native stepper bound to one batch, one model and one integrator. */
export class NativeStepperHandle {
  readonly #native: NativeStepper;
  /** False when a JS model computes forces, so every step walks its stages from JS. */
  readonly computesNatively: boolean;
  /** How many native hooks were added: the next one's index. */
  #hooks = 0;

  constructor(binding: NativeBinding, batch: NativeBatch, model: object | null, integrator: string, parameters: Record<string, Float64Array>, exitStatus: number) {
    const Stepper = (binding as unknown as { NativeStepper: StepperConstructor }).NativeStepper;
    this.#native = new Stepper(batch, model, integrator, parameters, exitStatus);
    this.computesNatively = model !== null;
  }

  get stepCount(): number { return this.#native.stepCount; }
  set stepCount(step: number) { this.#native.stepCount = step; }
  /** Walks to `stage` of the current step; at ON_CONVERGE, returns whether systems newly converged. */
  runTo(stage: DynamicsStage): boolean { return this.#native.runTo(nativeStageIndex(stage)); }
  finishStep(): void { this.#native.finishStep(); }
  /** Runs the native hooks due at BEFORE_COMPUTE or AFTER_COMPUTE outside a step (around the first compute). */
  runComputeHooks(stage: DynamicsStage): void { this.#native.runComputeHooks(nativeStageIndex(stage)); }
  /**
   * Up to `maxSteps` whole steps (any safe integer: chunks beyond what native `advance` takes are clamped,
   * and the caller loops on the steps actually taken).
   */
  advance(maxSteps: number, budgetSeconds: number, pauseOnConverge: boolean): { steps: number; pausedOnConverge: boolean } {
    return this.#native.advance(Math.min(maxSteps, MAX_NATIVE_CHUNK), budgetSeconds, pauseOnConverge);
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
  loadState(state: Float64Array): void { this.#native.loadState(state); }
  /**
   * After a refill: keeps systems `keep`, appends `added`; `arrivals`, indexed as the hooks were added, brings
   * a hook the refilled batch's data (undefined for a hook that remaps on its own).
   */
  remap(keep: Int32Array, added: number, arrivals?: ReadonlyMap<number, NativeHookArrivals>): void {
    const list = arrivals === undefined || arrivals.size === 0 ? undefined : Array.from({ length: this.#hooks }, (_, k) => arrivals.get(k));
    this.#native.remap(keep, added, list);
  }
}
