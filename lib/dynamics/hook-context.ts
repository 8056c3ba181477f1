// What dynamics hooks receive and what they are: the types every part of an engine names (dynamics.ts,
// hook-tiers.ts, step-walker.ts), in a leaf of their own so that those files import it and not each other.
import type { Batch } from '../data/index.js';
import type { DynamicsContext, Hook } from '../hooks/index.js';
import type { EngineModel } from './engine-model.js';
import type { SystemScalars } from './scalars.js';
import type { DynamicsStage } from './stage.js';

/**
 * The context dynamics hooks receive: batch, model, convergedMask, lazily computed per-system scalars, and
 * in a FusedStage the index of the sub-stage whose hook is running (null for fused hooks and plain engines).
 */
export type DynamicsHookContext = DynamicsContext<Batch, EngineModel, DynamicsStage> & {
  readonly scalars: SystemScalars;
  readonly subStage: number | null;
  /** At ON_CONVERGE: for each newly converged system, the status it converged from (-1 elsewhere); null at other stages. */
  readonly convergedFrom: Int32Array | null;
};
/** A hook for a dynamics engine. */
export type DynamicsHook = Hook<DynamicsStage, DynamicsHookContext>;

/**
 * A plain function as a dynamics hook: the function is the hook's `call`, and its `stage` and `frequency`
 * properties say where and how often it fires.
 *
 * @example
 * const report: DynamicsHookFunction = Object.assign((ctx: DynamicsHookContext) => console.log(ctx.stepCount), { stage: DynamicsStage.AFTER_STEP, frequency: 100 });
 */
export type DynamicsHookFunction = ((ctx: DynamicsHookContext, stage: DynamicsStage) => void | Promise<void>) & {
  stage?: DynamicsStage | null;
  frequency?: number;
  name?: string;
};
