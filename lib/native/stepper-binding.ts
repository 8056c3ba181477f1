// The typed surface of the native stepping loop (native/cpp/binding/StepperWrap over
// native/cpp/dynamics/Stepper.h), which NativeBinding lists as NativeStepper. Stages are the native indices
// (native/cpp/dynamics/DynamicsStage.h); lib/dynamics/native-stepper.ts maps DynamicsStage onto them.
import type { NativeBatch } from './batch-binding.js';

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

/** The native stepper of one batch, one model and one integrator. */
export interface NativeStepper {
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

/** new NativeStepper(batch, model (null: a JS model computes), integrator name, per-system parameters, exitStatus). */
export type NativeStepperConstructor = new (
  batch: NativeBatch,
  model: object | null,
  integrator: string,
  parameters: Record<string, Float64Array>,
  exitStatus: number,
) => NativeStepper;
