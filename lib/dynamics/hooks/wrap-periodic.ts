// WrapPeriodicHook: maps positions back into the cell along periodic directions.
import type { Batch } from '../../data/index.js';
import type { DynamicsContext } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';
import type { NativeHookSpec } from './native-hook.js';
import { checkKeys } from '../../option-keys.js';

function invert3(m: ArrayLike<number>): number[] | undefined {
  const a = (i: number): number => m[i];
  const det = a(0) * (a(4) * a(8) - a(5) * a(7)) - a(1) * (a(3) * a(8) - a(5) * a(6)) + a(2) * (a(3) * a(7) - a(4) * a(6));
  if (det === 0) return undefined;
  const r = 1 / det;
  return [
    (a(4) * a(8) - a(5) * a(7)) * r, (a(2) * a(7) - a(1) * a(8)) * r, (a(1) * a(5) - a(2) * a(4)) * r,
    (a(5) * a(6) - a(3) * a(8)) * r, (a(0) * a(8) - a(2) * a(6)) * r, (a(2) * a(3) - a(0) * a(5)) * r,
    (a(3) * a(7) - a(4) * a(6)) * r, (a(1) * a(6) - a(0) * a(7)) * r, (a(0) * a(4) - a(1) * a(3)) * r,
  ];
}

const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (v: number[]): number[] => {
  const length = Math.hypot(v[0], v[1], v[2]);
  return length > 0 ? v.map((x) => x / length) : v;
};

/**
 * System `s`'s cell with each zero vector of a non-periodic direction completed as ASE's complete_cell does
 * (native/cpp/math/CellMath.h, completeCell): a slab given without its vacuum vector still wraps.
 */
function completedCell(cells: ArrayLike<number>, pbc: ArrayLike<number>, s: number): number[] {
  const rows = [0, 1, 2].map((k) => [0, 1, 2].map((c) => cells[9 * s + 3 * k + c]));
  const missing = [0, 1, 2].filter((k) => !pbc[3 * s + k] && rows[k].every((x) => x === 0));
  if (missing.length === 1) {
    const k = missing[0];
    rows[k] = unit(cross(rows[(k + 1) % 3], rows[(k + 2) % 3]));
  } else if (missing.length === 2) {
    const present = [0, 1, 2].find((k) => !missing.includes(k)) as number;
    const a = rows[present];
    const least = [0, 1, 2].reduce((best, c) => (Math.abs(a[c]) < Math.abs(a[best]) ? c : best), 0);
    const second = unit(cross([0, 1, 2].map((c) => (c === least ? 1 : 0)), a));
    rows[(present + 2) % 3] = second;
    rows[(present + 1) % 3] = unit(cross(second, a));
  }
  return rows.flat();
}

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
