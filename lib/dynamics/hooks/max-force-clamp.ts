// MaxForceClampHook: caps each atom's force norm after the force computation, keeping its direction.
import type { Batch } from '../../data/index.js';
import { HookmdRangeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { registerHookType, type DynamicsContext } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';
import type { NativeHookSpec } from './native-hook.js';

/**
 * Caps every atom's |F| at `maxForce` (eV/Å in metal units) at AFTER_COMPUTE. Runs natively in engines.
 *
 * @example
 * new FIRE({ model, hooks: [new MaxForceClampHook({ maxForce: 10 })] });
 */
export class MaxForceClampHook {
  readonly stage: DynamicsStage = DynamicsStage.AFTER_COMPUTE;
  readonly frequency: number;
  readonly name = 'MaxForceClampHook';
  readonly maxForce: number;

  constructor(options: { maxForce: number; frequency?: number }) {
    checkKeys('MaxForceClampHook', options, ['maxForce', 'frequency']);
    if (!(Number.isFinite(options?.maxForce) && options.maxForce > 0)) {
      throw new HookmdRangeError('INVALID_PARAMETER', `MaxForceClampHook: maxForce must be a finite number > 0, got ${options?.maxForce}`, {
        field: 'maxForce',
        value: options?.maxForce,
      });
    }
    this.maxForce = options.maxForce;
    this.frequency = checkFrequency('MaxForceClampHook', options.frequency);
  }

  /** @internal The native form of this hook, for engines. */
  toNativeHook(): NativeHookSpec {
    return { type: 'MaxForceClampHook', stages: [this.stage], frequency: this.frequency, phase: 0, value: this.maxForce };
  }

  /** The same clamp from JS, for custom workflows. */
  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    const forces = ctx.batch.forces;
    for (let i = 0; i < forces.length; i += 3) {
      const norm = Math.hypot(forces[i], forces[i + 1], forces[i + 2]);
      if (norm > this.maxForce) {
        const scale = this.maxForce / norm;
        forces[i] *= scale;
        forces[i + 1] *= scale;
        forces[i + 2] *= scale;
      }
    }
  }
}

registerHookType('MaxForceClampHook', (args) => new MaxForceClampHook(args as unknown as { maxForce: number; frequency?: number }));
