// NaNDetectorHook: fails fast, naming the systems and the step, when values stop being finite.
import type { Batch } from '../../data/index.js';
import { HookmdError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import type { DynamicsContext } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';
import type { NativeHookSpec } from './native-hook.js';

// Before the force call (bad positions would fail inside the neighbor list) and after it (bad forces).
const NAN_STAGES: readonly DynamicsStage[] = [DynamicsStage.BEFORE_COMPUTE, DynamicsStage.AFTER_COMPUTE];

/**
 * Throws NAN_DETECTED naming the systems (index and systemId) and the step when a position, velocity,
 * force or energy is NaN or infinite. Checks at BEFORE_COMPUTE and AFTER_COMPUTE; runs natively in engines.
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
    const { batch } = ctx;
    const x = batch.read('positions');
    const v = batch.read('velocities');
    const f = batch.read('forces');
    const energy = batch.read('energy');
    const ids = batch.read('systemId');
    const ptr = batch.read('ptr');
    const bad: string[] = [];
    for (let s = 0; s < batch.numSystems; s++) {
      let finite = Number.isFinite(energy[s]);
      for (let k = 3 * ptr[s]; finite && k < 3 * ptr[s + 1]; k++) finite = Number.isFinite(x[k]) && Number.isFinite(v[k]) && Number.isFinite(f[k]);
      if (!finite) bad.push(`${s} (systemId ${ids[s]})`);
    }
    if (bad.length > 0) {
      throw new HookmdError('NAN_DETECTED', `NaNDetectorHook: non-finite values at step ${ctx.stepCount} in systems ${bad.join(', ')}`, {
        step: ctx.stepCount,
        systems: bad,
      });
    }
  }
}
