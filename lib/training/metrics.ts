// Error metrics of a loss evaluation: MAE and RMSE of the energy per atom, of the force components and of
// the stress components, over the systems that have each reference.
import type { LossStats } from './dataset.js';

/**
 * MAE and RMSE per quantity; NaN when no system had that reference.
 *
 * @example
 * const { energyMae, forcesRmse } = loss.evaluate().metrics; // eV/atom and eV/Å in metal units
 */
export interface ErrorMetrics {
  /** Mean |ΔE|/n over systems (energy per atom). */
  readonly energyMae: number;
  readonly energyRmse: number;
  /** Mean |ΔF| over force components. */
  readonly forcesMae: number;
  readonly forcesRmse: number;
  /** Mean |Δσ| over stress components. */
  readonly stressMae: number;
  readonly stressRmse: number;
}

/** @internal */
export function errorMetrics(stats: LossStats): ErrorMetrics {
  const mean = (sum: number, count: number): number => (count > 0 ? sum / count : Number.NaN);
  return {
    energyMae: mean(stats.energyAbs, stats.energyCount),
    energyRmse: Math.sqrt(mean(stats.energySq, stats.energyCount)),
    forcesMae: mean(stats.forceAbs, stats.forceCount),
    forcesRmse: Math.sqrt(mean(stats.forceSq, stats.forceCount)),
    stressMae: mean(stats.stressAbs, stats.stressCount),
    stressRmse: Math.sqrt(mean(stats.stressSq, stats.stressCount)),
  };
}

/**
 * @internal The validation metrics under their ctx.metrics names (`val_loss`, `val_energy_mae`, …); a
 * quantity without references is left out.
 */
export function validationMetrics(stats: LossStats): Record<string, number> {
  const m = errorMetrics(stats);
  const out: Record<string, number> = { val_loss: stats.total };
  if (stats.energyCount > 0) Object.assign(out, { val_energy_mae: m.energyMae, val_energy_rmse: m.energyRmse });
  if (stats.forceCount > 0) Object.assign(out, { val_forces_mae: m.forcesMae, val_forces_rmse: m.forcesRmse });
  if (stats.stressCount > 0) Object.assign(out, { val_stress_mae: m.stressMae, val_stress_rmse: m.stressRmse });
  return out;
}
