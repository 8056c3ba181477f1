// NaNDetectorHook: fails fast, naming the systems, the step and the quantities, when values stop being finite.
import type { Batch } from '../../data/index.js';
import { HookmdError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { registerHookType, type DynamicsContext } from '../../hooks/index.js';
import { describeNonFinite, nonFiniteValues } from '../non-finite.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';
import type { NativeHookSpec } from './native-hook.js';

// Before the force call (bad positions would fail inside the neighbor list) and after it (bad forces).
const NAN_STAGES: readonly DynamicsStage[] = [DynamicsStage.BEFORE_COMPUTE, DynamicsStage.AFTER_COMPUTE];

/**
 * Throws NAN_DETECTED naming the systems (index and systemId), the step and each quantity that went bad
 * (`forces of atom 2 are NaN`, `energy is Infinity`) when a position, velocity, force or energy is NaN or
 * infinite. Checks at BEFORE_COMPUTE and AFTER_COMPUTE; runs natively in engines.
 *
 * @example
 * new VelocityVerlet({ model, dt: 1, hooks: [new NaNDetectorHook({ frequency: 10 })] });
 */
export class NaNDetectorHook {
  readonly stage: DynamicsStage | null = null;
  readonly frequency: number;
  readonly name = 'NaNDetectorHook';

  constructor(options: { frequency?: number } = {}) {
    checkKeys('NaNDetectorHook', options, ['frequency']);
    this.frequency = checkFrequency('NaNDetectorHook', options.frequency);
  }

  runsOnStage(stage: DynamicsStage): boolean {
    return NAN_STAGES.includes(stage);
  }

  /** @internal The native form of this hook, for engines. */
  toNativeHook(): NativeHookSpec {
    return { type: 'NaNDetectorHook', stages: NAN_STAGES, frequency: this.frequency, phase: 0 };
  }

  /** The same check from JS, for custom workflows. */
  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    const error = nanDetected(ctx.batch, ctx.stepCount);
    if (error !== undefined) throw error;
  }
}

/**
 * NAN_DETECTED for the systems of `batch` that hold a non-finite value, naming each quantity that went bad
 * and its first atom; undefined when every value is finite.
 */
export function nanDetected(batch: Batch, step: number): HookmdError | undefined {
  const ids = batch.read('systemId');
  const systems: { system: number; systemId: number; quantities: string[]; cause: string }[] = [];
  for (let s = 0; s < batch.numSystems; s++) {
    const bad = nonFiniteValues(batch, s);
    if (bad.length > 0) systems.push({ system: s, systemId: ids[s], quantities: bad.map((v) => v.quantity), cause: bad.map(describeNonFinite).join(', ') });
  }
  if (systems.length === 0) return undefined;
  const listed = systems.map((d) => `${d.system} (systemId ${d.systemId}): ${d.cause}`).join('; ');
  return new HookmdError('NAN_DETECTED', `NaNDetectorHook: non-finite values at step ${step} in systems ${listed}`, { step, systems });
}

registerHookType('NaNDetectorHook', (args) => new NaNDetectorHook(args as { frequency?: number }));
