// WrapPeriodicHook: maps positions back into the cell along periodic directions.
import { completedCell, invert3, type Batch } from '../../data/index.js';
import { registerHookType, type DynamicsContext } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';
import type { NativeHookSpec } from './native-hook.js';
import { checkKeys } from '../../option-keys.js';

/**
 * Wraps positions into the cell (fractional coordinates in [0, 1)) along periodic directions at
 * AFTER_POST_UPDATE. Runs natively in engines.
 *
 * @example
 * new VelocityVerlet({ model, dt: 1, hooks: [new WrapPeriodicHook({ frequency: 100 })] });
 */
export class WrapPeriodicHook {
  readonly stage: DynamicsStage = DynamicsStage.AFTER_POST_UPDATE;
  readonly frequency: number;
  readonly name = 'WrapPeriodicHook';

  constructor(options: { frequency?: number } = {}) {
    checkKeys('WrapPeriodicHook', options, ['frequency']);
    this.frequency = checkFrequency('WrapPeriodicHook', options.frequency);
  }

  /** @internal The native form of this hook, for engines. */
  toNativeHook(): NativeHookSpec {
    return { type: 'WrapPeriodicHook', stages: [this.stage], frequency: this.frequency, phase: 0 };
  }

  /** The same wrap from JS, for custom workflows. */
  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    const { batch } = ctx;
    const x = batch.positions;
    const cell = batch.read('cell');
    const pbc = batch.read('pbc');
    const ptr = batch.read('ptr');
    for (let s = 0; s < batch.numSystems; s++) {
      if (!(pbc[3 * s] || pbc[3 * s + 1] || pbc[3 * s + 2])) continue;
      const h = completedCell(cell, pbc, s);
      const inv = invert3(h);
      if (inv === undefined) continue;
      for (let i = ptr[s]; i < ptr[s + 1]; i++) {
        const f = [0, 1, 2].map((k) => x[3 * i] * inv[k] + x[3 * i + 1] * inv[3 + k] + x[3 * i + 2] * inv[6 + k]);
        for (let k = 0; k < 3; k++) if (pbc[3 * s + k]) f[k] -= Math.floor(f[k]);
        for (let c = 0; c < 3; c++) x[3 * i + c] = f[0] * h[c] + f[1] * h[3 + c] + f[2] * h[6 + c];
      }
    }
  }
}

registerHookType('WrapPeriodicHook', (args) => new WrapPeriodicHook(args as { frequency?: number }));
