// How far a model is from labelled data: its energies, forces and stresses on a set of systems (a DFT test
// set, readMlearn's or extxyz's) against the labels they carry, as the MAE and RMSE of the energy per atom,
// of the force components and of the stress components: the numbers ML-potential papers report.
import { Batch } from '../data/index.js';
import type { System } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';
import type { Model } from '../models/index.js';
import type { LossStats } from './dataset.js';
import { errorMetrics, type ErrorMetrics } from './metrics.js';

/** The errors and, per system, the model's energy (in the systems' order). */
export interface ModelErrors extends ErrorMetrics {
  readonly energies: Float64Array;
}

/** Systems per batch: a test set is evaluated in batches of at most this many atoms. */
const MAX_BATCH_ATOMS = 20_000;

const flat = (rows: ArrayLike<ArrayLike<number>> | ArrayLike<number>): number[] =>
  Array.from(rows as ArrayLike<unknown>).flatMap((row) => (typeof row === 'number' ? [row] : Array.from(row as ArrayLike<number>)));

/**
 * Computes `model` on `systems` (in batches) and compares with the `energy`, `forces` and `stress` each
 * system carries; a quantity no system carries has NaN errors. The stress is compared only where a system
 * carries one and is periodic in every direction.
 *
 * @example
 * const errors = await modelErrors(SNAP.fromLammps('Ni_Zuo_JPCA2020.snap'), readMlearn('Ni/test.json'));
 * errors.energyMae * 1000; // meV/atom
 */
export async function modelErrors(model: Model, systems: readonly System[]): Promise<ModelErrors> {
  if (!Array.isArray(systems) || systems.length === 0) {
    throw new HookmdTypeError('INVALID_ARGUMENT', 'modelErrors: systems must be a non-empty array of labelled systems', { field: 'systems' });
  }
  const energies = new Float64Array(systems.length);
  const stats = { total: 0, energy: 0, forces: 0, stress: 0, energyAbs: 0, energySq: 0, energyCount: 0, forceAbs: 0, forceSq: 0, forceCount: 0, stressAbs: 0, stressSq: 0, stressCount: 0 };
  const add = (kind: 'energy' | 'force' | 'stress', difference: number): void => {
    stats[`${kind}Abs`] += Math.abs(difference);
    stats[`${kind}Sq`] += difference * difference;
    stats[`${kind}Count`] += 1;
  };
  for (let start = 0; start < systems.length; ) {
    let end = start;
    let atoms = 0;
    while (end < systems.length && (end === start || atoms + (systems[end] as System).positions.length <= MAX_BATCH_ATOMS)) atoms += (systems[end++] as System).positions.length;
    const chunk = systems.slice(start, end);
    const unlabelled = chunk.map(({ energy: _e, forces: _f, stress: _s, ...rest }) => rest);
    const batch = Batch.fromSystems(unlabelled);
    const wantStress = chunk.some((s) => s.stress !== undefined);
    await model.compute(batch, { stress: wantStress });
    let atom = 0;
    chunk.forEach((system, k) => {
      const n = system.positions.length;
      const energy = batch.energy[k] as number;
      energies[start + k] = energy;
      if (system.energy !== undefined) add('energy', (energy - system.energy) / n);
      if (system.forces !== undefined) flat(system.forces).forEach((f, c) => add('force', (batch.forces[3 * atom + c] as number) - f));
      const periodic = system.pbc === true || (Array.isArray(system.pbc) && system.pbc.every(Boolean));
      if (system.stress !== undefined && periodic) flat(system.stress).forEach((s, c) => add('stress', (batch.stress[9 * k + c] as number) - s));
      atom += n;
    });
    start = end;
  }
  return { ...errorMetrics(stats as LossStats), energies };
}
