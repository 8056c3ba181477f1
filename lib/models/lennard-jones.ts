// LennardJones: the TS handle of the native PairPotential (models/ListedPairPotential; formula in math/LennardJonesEval.h).
import { NativePairModel, type PairModelDeclaration } from './native-pair-model.js';

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
