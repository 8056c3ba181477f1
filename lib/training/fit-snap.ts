// fitSnap: linear and quadratic SNAP by weighted linear least squares on DFT energies, forces and stresses,
// as FitSNAP and mlearn fit them (docs/training.md, "Fitting SNAP"). The rows come from
// snap-descriptors.ts, the solve from least-squares.ts; everything is checked before the first descriptor is
// computed. The options are plain data, so a YAML config can give them as they stand.
import { atomicNumber, chemicalSymbol, type System } from '../data/index.js';
import { flattenNumbers } from '../data/flatten-numbers.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { SNAP, type SnapParameterKeywords } from '../models/snap.js';
import { readSnapParameters, snapParametersOf, type SnapParameters } from '../models/snap-file.js';
import { checkKeys } from '../option-keys.js';
import { leastSquares } from './least-squares.js';
import { snapDescriptorRows, type SnapDescriptorElement } from './snap-descriptors.js';
import { showValue } from '../describe-value.js';

/** How much each kind of row counts: its residuals are multiplied by these (omitted: not fitted). */
export interface FitSnapWeights {
  /** Per energy row, the residual of the energy per atom (eV/atom). */
  readonly energy?: number;
  /** Per force component (eV/Å). */
  readonly forces?: number;
  /** Per stress component xx yy zz yz xz xy (eV/Å³, periodic structures only). */
  readonly stress?: number;
  /**
   * FitSNAP's group weights: a factor on every row of the structures whose `info.group` is the key (readMlearn
   * sets Elastic, AIMD-NVT, Surface, Vacancy); other structures count once.
   */
  readonly groups?: Readonly<Record<string, number>>;
}

/**
 * Options of {@link fitSnap}.
 *
 * @example
 * const options: FitSnapOptions = {
 *   train: readMlearn('test/fixtures/mlearn/Mo/training.json'),
 *   parameters: '/usr/share/lammps/potentials/Mo_Zuo_JPCA2020.snapparam',
 *   elements: { Mo: { radius: 0.5, weight: 1 } },
 *   weights: { energy: 100, forces: 1 },
 * };
 */
export interface FitSnapOptions {
  /** The labelled structures: each with an energy, forces and a stress where those weights are given. */
  readonly train: readonly System[];
  /** Path of a `.snapparam` file, or its keywords (rcutfac, twojmax, quadraticflag, ...). */
  readonly parameters: string | SnapParameterKeywords;
  /** Each element's radius and weight, as a `.snapcoeff` block header gives them; their order is the file's. */
  readonly elements: Readonly<Record<string, SnapDescriptorElement>>;
  readonly weights: FitSnapWeights;
  /** λ > 0 of the ridge term λ ‖c‖² over every coefficient; default: none. */
  readonly ridge?: number;
}

const WEIGHT_KINDS = ['energy', 'forces', 'stress'] as const;
/** The six independent stress components, at their places in a row-major 3×3. */
const STRESS_COMPONENTS = [0, 4, 8, 5, 2, 1];

function invalid(message: string, field: string, value: unknown): HookmdTypeError {
  return new HookmdTypeError('INVALID_OPTIONS', `fitSnap: ${message}`, { field, value });
}

function positive(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !(value > 0)) {
    throw new HookmdRangeError('INVALID_OPTIONS', `fitSnap: ${field} must be a finite number > 0, got ${showValue(value)}`, { field, value });
  }
  return value;
}

/** The labels of system s that the weights fit, checked; throws MISSING_LABEL or INVALID_LABEL naming the structure. */
interface Labels {
  n: number;
  /** The group weight of the structure's rows. */
  factor: number;
  energy?: number;
  forces?: Float64Array;
  stress?: Float64Array;
}

function labelsOf(system: System, s: number, weights: FitSnapWeights, names: ReadonlySet<string>): Labels {
  if (system === null || typeof system !== 'object' || system.positions === undefined) throw invalid(`train[${s}] must be a system`, `train[${s}]`, system);
  const symbols = system.symbols !== undefined ? Array.from(system.symbols) : Array.from(system.atomicNumbers ?? [], (z) => chemicalSymbol(z));
  const n = symbols.length;
  const stranger = symbols.find((symbol) => !names.has(symbol));
  if (stranger !== undefined) {
    throw new HookmdError('MISSING_SPECIES', `fitSnap: train[${s}] has ${stranger}, which elements does not give (${[...names].join(', ')})`, { field: `train[${s}]`, value: stranger });
  }
  const missing = (what: string): HookmdTypeError =>
    new HookmdTypeError('MISSING_LABEL', `fitSnap: train[${s}] has no ${what}, but weights.${what} is set`, { field: `train[${s}].${what}`, index: s });
  const source = (field: string) => ({ owner: 'fitSnap', field: `train[${s}].${field}`, code: 'INVALID_LABEL', maxDepth: 2 });
  const group = system.info?.group;
  const labels: Labels = { n, factor: (typeof group === 'string' ? weights.groups?.[group] : undefined) ?? 1 };
  if (weights.energy !== undefined) {
    if (system.energy === undefined) throw missing('energy');
    if (typeof system.energy !== 'number' || !Number.isFinite(system.energy)) {
      throw new HookmdRangeError('INVALID_LABEL', `fitSnap: train[${s}].energy is ${system.energy}; labels must be finite numbers`, { field: `train[${s}].energy`, index: s, value: system.energy });
    }
    labels.energy = system.energy;
  }
  if (weights.forces !== undefined) {
    if (system.forces === undefined) throw missing('forces');
    labels.forces = flattenNumbers(system.forces, 3 * n, source('forces'));
  }
  const periodic = system.pbc === true || (Array.isArray(system.pbc) && system.pbc.every(Boolean));
  if (weights.stress !== undefined && periodic) {
    if (system.stress === undefined) throw missing('stress');
    labels.stress = flattenNumbers(system.stress, 9, source('stress'));
  }
  return labels;
}

/**
 * Fits SNAP's coefficients to labelled structures by weighted linear least squares and returns the model:
 * it minimises Σ_s [w_E (Ê_s − E_s)/N_s]² + Σ [w_F (F̂ − F)]² + Σ [w_S (σ̂ − σ)]² + λ ‖c‖², where Ê, F̂, σ̂
 * are linear in the coefficients c (snap-descriptors.ts) and the sums run over the structures, force
 * components and stress components (xx yy zz yz xz xy of periodic structures) of the kinds given weights.
 * quadraticflag in the parameters fits quadratic SNAP. Bad input (a structure without the labels a weight
 * asks for, a non-finite label, an element `elements` lacks, a weight or ridge that is not a finite number
 * > 0) is a typed error before any work.
 *
 * @example
 * const mo = fitSnap({
 *   train: readMlearn('test/fixtures/mlearn/Mo/training.json'),
 *   parameters: '/usr/share/lammps/potentials/Mo_Zuo_JPCA2020.snapparam',
 *   elements: { Mo: { radius: 0.5, weight: 1 } },
 *   weights: { energy: 100, forces: 1 },
 * });
 * mo.save('out/Mo'); // out/Mo.snapcoeff, out/Mo.snapparam, out/Mo.snap
 */
export function fitSnap(options: FitSnapOptions): SNAP {
  if (options === null || typeof options !== 'object') throw invalid('options must be an object with train, parameters, elements and weights', 'options', options);
  checkKeys('fitSnap', options, ['train', 'parameters', 'elements', 'weights', 'ridge'], '', { coefficients: 'elements (radius and weight; the coefficients are what is fitted)', regularization: 'ridge', alpha: 'ridge' });
  const { train, elements, ridge } = options;
  if (!Array.isArray(train) || train.length === 0) throw invalid('train must be a non-empty array of labelled systems', 'train', train);
  if (elements === null || typeof elements !== 'object' || Array.isArray(elements) || Object.keys(elements).length === 0) {
    throw invalid('elements must be an object of element symbols to { radius, weight }', 'elements', elements);
  }
  for (const [name, element] of Object.entries(elements)) {
    atomicNumber(name);
    checkKeys('fitSnap', element, ['radius', 'weight'], `elements.${name}.`);
    positive(element.radius, `elements.${name}.radius`);
    if (typeof element.weight !== 'number' || !Number.isFinite(element.weight)) throw invalid(`elements.${name}.weight must be a finite number`, `elements.${name}.weight`, element.weight);
  }
  const weights = options.weights;
  checkKeys('fitSnap', weights, [...WEIGHT_KINDS, 'groups'], 'weights.', { force: 'forces', energies: 'energy', virial: 'stress' });
  for (const kind of WEIGHT_KINDS) if (weights[kind] !== undefined) positive(weights[kind], `weights.${kind}`);
  if (weights.groups !== undefined) {
    if (weights.groups === null || typeof weights.groups !== 'object' || Array.isArray(weights.groups)) throw invalid('weights.groups must be an object of group names to factors', 'weights.groups', weights.groups);
    for (const [group, factor] of Object.entries(weights.groups)) positive(factor, `weights.groups.${group}`);
  }
  if (WEIGHT_KINDS.every((kind) => weights[kind] === undefined)) throw invalid('weights must give at least one of energy, forces, stress', 'weights', weights);
  if (ridge !== undefined) positive(ridge, 'ridge');
  const parameters: SnapParameters =
    typeof options.parameters === 'string' ? readSnapParameters('fitSnap', options.parameters) : snapParametersOf('fitSnap', options.parameters);
  const names = new Set(Object.keys(elements));
  const labels = train.map((system, s) => labelsOf(system, s, weights, names));

  const rows = snapDescriptorRows(train, parameters, elements, { forces: weights.forces !== undefined, stress: weights.stress !== undefined });
  // Rows: the energies per atom, then the force components, then the stress components, each times its weight.
  const we = weights.energy ?? 0, wf = weights.forces ?? 0, ws = weights.stress ?? 0;
  const targets: number[] = [];
  labels.forEach((l) => {
    if (l.energy !== undefined) targets.push((l.factor * we * l.energy) / l.n);
  });
  labels.forEach((l) => l.forces?.forEach((f) => targets.push(l.factor * wf * f)));
  labels.forEach((l) => {
    if (l.stress !== undefined) for (const c of STRESS_COMPONENTS) targets.push(l.factor * ws * (l.stress[c] as number));
  });
  const columns = rows.energy.map((energy, j) => {
    const column = new Float64Array(targets.length);
    let at = 0;
    labels.forEach((l, s) => {
      if (l.energy !== undefined) column[at++] = (l.factor * we * (energy[s] as number)) / l.n;
    });
    const forces = rows.forces[j] as Float64Array;
    let atom = 0;
    labels.forEach((l) => {
      if (l.forces !== undefined) for (let c = 0; c < 3 * l.n; c++) column[at++] = l.factor * wf * (forces[3 * atom + c] as number);
      atom += l.n;
    });
    const stress = rows.stress[j] as Float64Array;
    labels.forEach((l, s) => {
      if (l.stress !== undefined) for (const c of STRESS_COMPONENTS) column[at++] = l.factor * ws * (stress[9 * s + c] as number);
    });
    return column;
  });
  const { x } = leastSquares(columns, Float64Array.from(targets), ridge ?? 0);
  const coefficients = Object.fromEntries(
    Object.entries(elements).map(([name, element], e) => [name, { radius: element.radius, weight: element.weight, coefficients: Array.from(x.subarray(e * rows.perElement, (e + 1) * rows.perElement)) }]),
  );
  return new SNAP({ coefficients, parameters: options.parameters });
}
