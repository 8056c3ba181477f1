// The engine as runStream drives it (Dynamics hands one to it): the parts of the engine a stream reads, and
// the moves of the engine's one step loop, so that a stream steps exactly as run() does.
import type { Batch } from '../../data/index.js';
import type { MutableContext, RunControl } from '../../hooks/index.js';
import type { Pending } from '../../hooks/lifecycle.js';
import type { EngineModel } from '../engine-model.js';
import type { EngineRun, Pacer } from '../engine-run.js';
import type { DynamicsHookContext } from '../hook-context.js';
import type { HookTiers } from '../hook-tiers.js';
import type { StepCounter } from '../step-walker.js';
import type { StreamConstraints } from './constraints.js';

export interface StreamEngine {
  /** The engine's class name, which messages start with. */
  readonly name: string;
  readonly exitStatus: number;
  readonly model: EngineModel;
  readonly tiers: HookTiers;
  /** A counter for the stream, carrying on from the engine's count. */
  startCounter(): StepCounter;
  /** COLD_START for a system from `from` on at rest in a rescaling thermostat. */
  refuseColdStart(batch: Batch, owner: string, from?: number): void;
  /** Takes `batch` for the stream (its statuses are the source's, never an earlier engine's); returns the hooks' context. */
  claim(batch: Batch, control: RunControl, counter: StepCounter): MutableContext<DynamicsHookContext>;
  /** The stream's run on the context's batch: the stepper bound and a walker of the run's counter. */
  begin(ctx: MutableContext<DynamicsHookContext>, control: RunControl, counter: StepCounter, owner: string): EngineRun;
  /** `ctx.scalars` for the run's batch, with the atoms `held` fixes now held besides the engine's own. */
  holdFixed(run: EngineRun, held: StreamConstraints): void;
  /** The forces of the start positions (or of a refilled batch), with the compute hooks due around them. */
  prime(run: EngineRun): Promise<void> | undefined;
  /** Up to `steps` steps of the engine's step loop, the one run() takes (Dynamics.steps). */
  steps(run: EngineRun, steps: number, active: boolean, signal: AbortSignal | undefined, pacer: Pacer): Generator<Pending, number, unknown>;
  /** After an in-place refill: the stepper's per-system state, its constraints' data and its parameters remapped. */
  rebind(run: EngineRun, keep: readonly number[], added: number, held: StreamConstraints, ptr: Int32Array): void;
}
