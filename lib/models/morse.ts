// Morse: the TS handle of the native PairPotential (models/ListedPairPotential; formula in math/MorseEval.h).
import { NativePairModel, type PairModelDeclaration } from './native-pair-model.js';

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
