// The pair models, each declared once (docs/ARCHITECTURE.md, "Adding a potential"): a model's options, its
// declaration (class and native name, CLI/config kind and spellings, parameters with their error codes,
// ranges and units) and its class, which only hands the declaration to NativePairModel; then the list that
// the config schema, the model kinds and the trainer read. A new pair model is its section here and its
// entry in PAIR_MODELS. Formulas: native/cpp/math/<Name>Eval.h, evaluated by the native PairPotential
// (models/ListedPairPotential).
import { NativePairModel, type PairModelDeclaration } from './native-pair-model.js';

// LennardJones (math/LennardJonesEval.h)

/**
 * ε and σ of one species pair; `cutoff` defaults to the model's `cutoff`.
 *
 * @example
 * const argon: LennardJonesPairParameters = { epsilon: 0.0104, sigma: 3.40 }; // eV, Å
 */
export interface LennardJonesPairParameters {
  /** Well depth ε (eV in metal units, ε in lj); ≥ 0 (0 turns the pair off). */
  epsilon: number;
  /** Zero-crossing distance σ (Å in metal units); > 0. */
  sigma: number;
  /** Cutoff r_c (Å in metal units); > 0. */
  cutoff?: number;
}

/**
 * Options of `new LennardJones(...)`: either `epsilon`, `sigma` and `cutoff` for every pair, or `pairs`.
 *
 * @example
 * const options: LennardJonesOptions = { epsilon: 1, sigma: 1, cutoff: 2.5, switchOn: 2.0, skin: 0.3 };
 */
export interface LennardJonesOptions {
  /** ε for every pair (only without `pairs`). */
  epsilon?: number;
  /** σ for every pair (only without `pairs`). */
  sigma?: number;
  /** Cutoff r_c for every pair, or the default of pairs without their own. */
  cutoff?: number;
  /**
   * Per-species-pair parameters keyed 'A-B' by symbol ('Ar-Kr') or atomic number ('18-36'); unordered.
   * No mixing rule is applied: a species pair present in a system but absent here is a MISSING_PAIR error.
   */
  pairs?: Readonly<Record<string, LennardJonesPairParameters>>;
  /** Shift each pair energy so that it is 0 at the cutoff (forces unchanged). Default false. */
  shift?: boolean;
  /** Start of the XPLOR switch (length units), 0 < switchOn < every cutoff; exclusive with `shift`. */
  switchOn?: number;
  /** Verlet skin (length units, ≥ 0). Default: the batch units' `defaultSkin` (2.0 Å metal, 0.3 σ lj). */
  skin?: number;
}

/**
 * The declaration of LennardJones (native/cpp/math/LennardJonesEval.h, θ = (ε, σ)): the class, the config
 * schema (`type: lj`), `--model lj:…` and the trainer's parameters come from it.
 *
 * @example
 * LENNARD_JONES.parameters.map((p) => p.name); // ['epsilon', 'sigma']
 */
export const LENNARD_JONES: PairModelDeclaration<'LennardJones', 'lj', LennardJonesOptions> = {
  name: 'LennardJones',
  kind: 'lj',
  spellings: ['lennard-jones'],
  parameters: [
    { name: 'epsilon', code: 'INVALID_EPSILON', allowZero: true, description: 'Well depth ε (eV in metal units); 0 switches a pair off.' },
    { name: 'sigma', code: 'INVALID_SIGMA', allowZero: false, description: 'Zero-crossing distance σ (Å in metal units).' },
  ],
  create: (options) => new LennardJones(options),
};

/**
 * The 12-6 Lennard-Jones potential, E(r) = 4ε[(σ/r)¹² − (σ/r)⁶] for r < r_c, evaluated natively with cell
 * lists, a Verlet skin and Newton's third law. Units are the batch's (metal: Å, eV; lj: reduced).
 *
 * @example
 * const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
 * const batch = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 1.2]] }], { units: 'lj' });
 * model.compute(batch);            // batch.energy[0] = 4(1.2⁻¹² − 1.2⁻⁶)
 *
 * @example
 * // Argon–krypton in metal units, every pair given explicitly:
 * new LennardJones({ cutoff: 10, pairs: {
 *   'Ar-Ar': { epsilon: 0.0104, sigma: 3.40 },
 *   'Kr-Kr': { epsilon: 0.0141, sigma: 3.65 },
 *   'Ar-Kr': { epsilon: 0.0121, sigma: 3.52 },
 * } });
 */
export class LennardJones extends NativePairModel {
  constructor(options: LennardJonesOptions) {
    super(LENNARD_JONES, options);
  }
}

// Morse (math/MorseEval.h)

/**
 * D, α and r₀ of one species pair; `cutoff` defaults to the model's `cutoff`.
 *
 * @example
 * const copper: MorsePairParameters = { D: 0.3429, alpha: 1.3588, r0: 2.866 }; // eV, 1/Å, Å
 */
export interface MorsePairParameters {
  /** Well depth D (eV in metal units); > 0. */
  D: number;
  /** Width α (1/Å in metal units); > 0. */
  alpha: number;
  /** Equilibrium distance r₀ (Å in metal units); > 0. */
  r0: number;
  /** Cutoff r_c (Å in metal units); > 0. */
  cutoff?: number;
}

/**
 * Options of `new Morse(...)`: either `D`, `alpha`, `r0` and `cutoff` for every pair, or `pairs`.
 *
 * @example
 * const options: MorseOptions = { D: 0.3429, alpha: 1.3588, r0: 2.866, cutoff: 7, shift: true };
 */
export interface MorseOptions {
  /** D for every pair (only without `pairs`). */
  D?: number;
  /** α for every pair (only without `pairs`). */
  alpha?: number;
  /** r₀ for every pair (only without `pairs`). */
  r0?: number;
  /** Cutoff r_c for every pair, or the default of pairs without their own. */
  cutoff?: number;
  /** Per-species-pair parameters keyed 'A-B' ('Cu-Cu' or '29-29'); no mixing rule, as for LennardJones. */
  pairs?: Readonly<Record<string, MorsePairParameters>>;
  /** Shift each pair energy so that it is 0 at the cutoff. Default false. */
  shift?: boolean;
  /** Start of the XPLOR switch (length units), 0 < switchOn < every cutoff; exclusive with `shift`. */
  switchOn?: number;
  /** Verlet skin (length units, ≥ 0). Default: the batch units' `defaultSkin`. */
  skin?: number;
}

/**
 * The declaration of Morse (native/cpp/math/MorseEval.h, θ = (D, α, r₀)): the class, the config schema
 * (`type: morse`), `--model morse:…` and the trainer's parameters come from it.
 *
 * @example
 * MORSE.parameters.map((p) => p.name); // ['D', 'alpha', 'r0']
 */
export const MORSE: PairModelDeclaration<'Morse', 'morse', MorseOptions> = {
  name: 'Morse',
  kind: 'morse',
  spellings: [],
  parameters: [
    { name: 'D', code: 'INVALID_PARAMETER', allowZero: false, description: 'Well depth D (eV in metal units).' },
    { name: 'alpha', code: 'INVALID_PARAMETER', allowZero: false, description: 'Width α (1/Å in metal units).' },
    { name: 'r0', code: 'INVALID_PARAMETER', allowZero: false, description: 'Equilibrium distance r₀ (Å in metal units).' },
  ],
  create: (options) => new Morse(options),
};

/**
 * The Morse potential, E(r) = D[e^{−2α(r−r₀)} − 2e^{−α(r−r₀)}] for r < r_c (minimum −D at r₀; LAMMPS's
 * `pair_style morse` and ASE's MorsePotential), evaluated natively like LennardJones.
 *
 * @example
 * // Girifalco–Weizer copper (metal units):
 * const copper = new Morse({ D: 0.3429, alpha: 1.3588, r0: 2.866, cutoff: 7 });
 * copper.compute(batch, { stress: true });
 */
export class Morse extends NativePairModel {
  constructor(options: MorseOptions) {
    super(MORSE, options);
  }
}

/**
 * Every pair model, in the order the config schema lists them.
 *
 * @example
 * PAIR_MODELS.map((model) => model.kind); // ['lj', 'morse']
 */
export const PAIR_MODELS: readonly [typeof LENNARD_JONES, typeof MORSE] = [LENNARD_JONES, MORSE];

type Declared = (typeof PAIR_MODELS)[number];

/**
 * The class name of a pair model, which is also its native evaluator's.
 *
 * @example
 * const type: PairModelType = 'Morse';
 */
export type PairModelType = Declared['name'];

/**
 * The CLI and config name of a pair model (`--model lj:…`).
 *
 * @example
 * const kind: PairModelKind = 'lj';
 */
export type PairModelKind = Declared['kind'];

type SpecOf<D> = D extends PairModelDeclaration<infer Name, string, infer Options> ? { type: Name } & Options : never;

/**
 * A pair model as plain data: its type and constructor options.
 *
 * @example
 * const spec: PairModelSpec = { type: 'LennardJones', epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true };
 */
export type PairModelSpec = SpecOf<Declared>;

/**
 * Any pair model of the list (LennardJones, Morse, …): what a Trainer fits.
 *
 * @example
 * const model: PairModel = new Morse({ D: 0.34, alpha: 1.36, r0: 2.87, cutoff: 7 });
 */
export type PairModel = NativePairModel;
