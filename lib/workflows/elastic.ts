// Elastic constants by finite strains, the way LAMMPS's examples/ELASTIC scripts compute them: the cell is
// relaxed to zero stress first (optional), then every one of the six Voigt strains is applied with both
// signs, the atoms of the twelve strained copies are relaxed together in one batch at fixed cell, and
// C_ij = (σ_i(+δ_j) − σ_i(−δ_j)) / 2δ_j, symmetrised. One native call per step serves all twelve cells.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { Batch, determinant3, unitSystem } from '../data/index.js';
import type { System } from '../data/index.js';
import { CellFilter, ConvergenceHook, FIRE, ProgressHook } from '../dynamics/index.js';
import type { Model } from '../models/index.js';
import { checkKeys } from '../option-keys.js';
import { showValue } from '../describe-value.js';
import type { WorkflowProgressCallback } from './workflow-progress.js';

/** Options of `elasticConstants`. */
export interface ElasticOptions {
  /** Strain amplitude δ of each Voigt component (engineering strain for the shears); default 1e-3. */
  strain?: number;
  /** Relax the atoms in every strained cell (the relaxed-ion constants); default true. */
  relaxIons?: boolean;
  /** Relax the cell to zero stress before straining it, as LAMMPS's ELASTIC example does; default true. */
  relaxCell?: boolean;
  /** Force threshold of the ion relaxations (eV/Å in metal units); default 1e-6. */
  fmax?: number;
  /** Stress threshold of the cell relaxation (eV/Å³ in metal units); default 1e-9. */
  stressTolerance?: number;
  /** Step budget of each relaxation; default 20,000. */
  maxSteps?: number;
  /** The system's units; default 'metal'. */
  units?: 'metal' | 'lj';
  /** Told every 10 steps of each relaxation (stages 'cell' and 'ions', of at most maxSteps) and at the stress call. */
  onProgress?: WorkflowProgressCallback;
}

/** What `elasticConstants` returns; moduli in GPa (metal units) or ε/σ³ (lj). */
export interface ElasticResult {
  /** C_ij in Voigt order xx, yy, zz, yz, xz, xy, symmetrised (½(C_ij + C_ji)). */
  readonly C: number[][];
  /** Voigt averages: B = (C11 + C22 + C33 + 2(C12 + C13 + C23))/9, G = (C11 + C22 + C33 − C12 − C13 − C23 + 3(C44 + C55 + C66))/15. */
  readonly bulkModulus: number;
  readonly shearModulus: number;
  /** E = 9BG/(3B + G) and ν = (3B − 2G)/(2(3B + G)) from the Voigt averages. */
  readonly youngsModulus: number;
  readonly poissonRatio: number;
  /** The reference system the strains were applied to (the relaxed one when relaxCell). */
  readonly reference: System;
  readonly unit: string;
}

const GPA_PER_EV_A3 = 160.21766208;
/** Voigt index → the tensor pair it strains. */
const VOIGT: readonly [number, number][] = [
  [0, 0],
  [1, 1],
  [2, 2],
  [1, 2],
  [0, 2],
  [0, 1],
];

function positiveOption(name: string, value: unknown, fallback: number, upper = Infinity): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || !(value > 0) || !(value < upper)) {
    throw new HookmdRangeError('INVALID_PARAMETER', `elasticConstants: ${name} must be a number > 0${upper < Infinity ? ` and < ${upper}` : ''}, got ${showValue(value)}`, { field: name, value });
  }
  return value;
}

/** `system` with positions and cell carried by x' = (I + ε) x, ε symmetric. */
function strained(system: System, epsilon: number[][]): System {
  const apply = (x: readonly number[]): number[] => [0, 1, 2].map((r) => x[r] + (epsilon[r] as number[]).reduce((sum, e, c) => sum + e * (x[c] as number), 0));
  return { ...system, positions: (system.positions as number[][]).map(apply), cell: (system.cell as number[][]).map(apply), forces: undefined, energy: undefined, stress: undefined };
}

/**
 * The elastic constants of a periodic `system` with `model`, in one batch of twelve strained copies.
 *
 * @example
 * const { C, bulkModulus } = await elasticConstants(new EAM({ file: 'Cu_u3.eam' }), bulk('Cu', 'fcc', { a: 3.615, cubic: true }));
 */
export async function elasticConstants(model: Model, system: System, options: ElasticOptions = {}): Promise<ElasticResult> {
  if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', 'elasticConstants: options must be an object', { field: 'options', value: options });
  checkKeys('elasticConstants', options, ['strain', 'relaxIons', 'relaxCell', 'fmax', 'stressTolerance', 'maxSteps', 'units', 'onProgress'], '', { delta: 'strain', up: 'strain' });
  if (model === null || typeof model !== 'object' || typeof (model as Model).compute !== 'function') {
    throw new HookmdTypeError('INVALID_MODEL', 'elasticConstants: model must be a model (an object with compute(batch, options))', { field: 'model', value: model });
  }
  const strain = positiveOption('strain', options.strain, 1e-3, 0.1);
  const fmax = positiveOption('fmax', options.fmax, 1e-6);
  const stressTolerance = positiveOption('stressTolerance', options.stressTolerance, 1e-9);
  const maxSteps = Math.round(positiveOption('maxSteps', options.maxSteps, 20_000));
  const units = unitSystem(options.units ?? 'metal');
  const onProgress = options.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new HookmdTypeError('INVALID_OPTIONS', `elasticConstants: onProgress must be a function, got ${showValue(onProgress)}`, { field: 'onProgress', value: onProgress });
  }
  // A relaxation's steps, every 10 (a JS hook at every step would slow the native loop for a bar).
  const told = (stage: 'cell' | 'ions'): ProgressHook[] =>
    onProgress === undefined ? [] : [new ProgressHook({ frequency: 10, onProgress: (event) => onProgress({ stage, done: event.step, total: maxSteps, unit: 'steps' }) })];
  const cell = system?.cell as number[][] | undefined;
  const pbc = system?.pbc;
  if (cell === undefined || !(pbc === true || (Array.isArray(pbc) && pbc.every(Boolean)))) {
    throw new HookmdTypeError('INVALID_PBC', 'elasticConstants: the system must be periodic in x, y and z (pbc: true, with a cell)', { field: 'pbc', value: pbc });
  }
  if (!(Math.abs(determinant3(cell.flat())) > 0)) throw new HookmdRangeError('SINGULAR_CELL', 'elasticConstants: the cell has no volume', { field: 'cell', value: cell });

  let reference: System = { ...system, pbc: true, velocities: undefined };
  if (options.relaxCell ?? true) {
    const batch = Batch.fromSystems([reference], { units: units.name });
    const fire = new FIRE({ model, cellFilter: new CellFilter({}), convergence: ConvergenceHook.fromFmaxAndStress(fmax, stressTolerance), hooks: told('cell') });
    const { converged } = await fire.run(batch, { steps: maxSteps });
    if (converged[0] !== 1) {
      throw new HookmdRangeError('NOT_CONVERGED', `elasticConstants: the cell relaxation did not reach fmax ${fmax} and stress ${stressTolerance} in ${maxSteps} steps; raise maxSteps or pass a relaxed system with relaxCell: false`, { field: 'maxSteps', value: maxSteps });
    }
    const [relaxed] = batch.toSystems();
    reference = { ...(relaxed as System), velocities: undefined, forces: undefined, energy: undefined, stress: undefined, info: {} };
  }

  // Twelve copies: +δ then −δ of each Voigt component; a shear δ is the engineering strain 2ε_ab.
  const copies: System[] = [];
  for (const [a, b] of VOIGT) {
    for (const sign of [1, -1]) {
      const epsilon = [0, 1, 2].map(() => [0, 0, 0]);
      const e = a === b ? sign * strain : (sign * strain) / 2;
      (epsilon[a] as number[])[b] = e;
      (epsilon[b] as number[])[a] = e;
      copies.push(strained(reference, epsilon));
    }
  }
  const batch = Batch.fromSystems(copies, { units: units.name });
  if (options.relaxIons ?? true) {
    const fire = new FIRE({ model, convergence: ConvergenceHook.fromFmax(fmax), hooks: told('ions') });
    const { converged } = await fire.run(batch, { steps: maxSteps });
    const missed = converged.findIndex((c) => c !== 1);
    if (missed >= 0) {
      throw new HookmdRangeError('NOT_CONVERGED', `elasticConstants: the ions of strained cell ${missed} did not relax to fmax ${fmax} in ${maxSteps} steps; raise maxSteps or fmax`, { field: 'maxSteps', value: maxSteps });
    }
  }
  onProgress?.({ stage: 'stress', done: 0, total: copies.length, unit: 'systems' });
  await model.compute(batch, { stress: true });
  onProgress?.({ stage: 'stress', done: copies.length, total: copies.length, unit: 'systems' });
  const sigma = batch.read('stress');
  const scale = units.name === 'metal' ? GPA_PER_EV_A3 : 1;
  const raw = VOIGT.map(([a, b]) => VOIGT.map((_, j) => ((sigma[9 * 2 * j + 3 * a + b] as number) - (sigma[9 * (2 * j + 1) + 3 * a + b] as number)) / (2 * strain) * scale));
  const C = raw.map((row, i) => row.map((value, j) => 0.5 * (value + (raw[j] as number[])[i])));
  const c = (i: number, j: number): number => (C[i - 1] as number[])[j - 1] as number;
  const bulkModulus = (c(1, 1) + c(2, 2) + c(3, 3) + 2 * (c(1, 2) + c(1, 3) + c(2, 3))) / 9;
  const shearModulus = (c(1, 1) + c(2, 2) + c(3, 3) - (c(1, 2) + c(1, 3) + c(2, 3)) + 3 * (c(4, 4) + c(5, 5) + c(6, 6))) / 15;
  return {
    C,
    bulkModulus,
    shearModulus,
    youngsModulus: (9 * bulkModulus * shearModulus) / (3 * bulkModulus + shearModulus),
    poissonRatio: (3 * bulkModulus - 2 * shearModulus) / (2 * (3 * bulkModulus + shearModulus)),
    reference,
    unit: units.name === 'metal' ? 'GPa' : `${units.energy}/${units.length}³`,
  };
}
