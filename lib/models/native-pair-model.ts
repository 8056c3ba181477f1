// The TS handle shared by the native pair potentials: the parameters they were built from, the compute of
// native-compute.ts, and the native object for engines. A pair model is a PairModelDeclaration and a class
// that hands it to NativePairModel, side by side in pair-models.ts.
import type { Batch } from '../data/index.js';
import { HookmdError } from '../errors.js';
import { loadBinding } from '../native/index.js';
import type { NativeNeighborStats, NativePotential } from '../native/models-binding.js';
import type { ComputeOptions, Model, ModelDescription } from './model.js';
import { computeNative } from './native-compute.js';
import { parsePairOptions, type ParameterRule, type ParsedPairOptions } from './pair-options.js';

/**
 * A pair model, declared once in lib/models/pair-models.ts: the model class, the config schema, the model
 * kinds of the CLI and the trainer's parameter list all read it (PAIR_MODELS lists them). `name` is the class's and the native evaluator's (native/cpp/math/PairEvaluators.h), and
 * `parameters` is θ in the order of that evaluator's ParamGrad; their rules are the only range checks of
 * those parameters (native code asserts only that they are finite).
 *
 * @example
 * const kind = LENNARD_JONES.kind; // 'lj', as in `--model lj:epsilon=…`
 */
export interface PairModelDeclaration<Name extends string = string, Kind extends string = string, Options = unknown> {
  readonly name: Name;
  /** The CLI and config name (`--model lj:…`, `type: lj`). */
  readonly kind: Kind;
  /** Further spellings of the kind, besides `kind` and `name` (case, `-` and `_` never count). */
  readonly spellings: readonly string[];
  readonly parameters: readonly ParameterRule[];
  /** The model of `options` (checked by the constructor). */
  create(options: Options): NativePairModel;
}

/** Base of every pair model: everything but its declaration. */
export abstract class NativePairModel implements Model {
  readonly name: string;
  /** Largest pair cutoff (length units). */
  readonly cutoff: number;
  /** What the model is: its names and parameters. */
  readonly declaration: PairModelDeclaration;
  readonly #native: NativePotential;
  readonly #parsed: ParsedPairOptions;

  protected constructor(declaration: PairModelDeclaration, options: unknown) {
    const parsed = parsePairOptions(declaration.name, options, declaration.parameters);
    const binding = loadBinding();
    // The declaration and the native list must agree on θ; a mismatch is a build or declaration bug.
    if (binding.pairEvaluators[declaration.name] !== declaration.parameters.length) {
      throw new HookmdError('NATIVE_FEATURE_MISSING', `${declaration.name}: the addon's pair evaluator list has ${binding.pairEvaluators[declaration.name] ?? 'no'} parameters for it, the declaration ${declaration.parameters.length}`);
    }
    this.name = declaration.name;
    this.declaration = declaration;
    this.cutoff = parsed.maxCutoff;
    this.#native = new binding.PairPotential(declaration.name, parsed.rows, parsed.shift, parsed.switchOn, parsed.skin);
    this.#parsed = parsed;
  }

  /** The native potential, for the dynamics engine's native stepping loop. */
  get native(): NativePotential {
    return this.#native;
  }

  /** The skin given at construction, or undefined: then each compute uses `batch.units.defaultSkin`. */
  get skin(): number | undefined {
    return this.#parsed.skin;
  }

  /**
   * Fills `batch.energy`, `batch.forces` (unless `forces: false`) and `batch.stress` (when `stress: true`).
   * Throws MISSING_PAIR when the batch holds a species pair without parameters.
   */
  compute(batch: Batch, options: ComputeOptions = {}): void {
    computeNative(this.name, this.#native, this.#parsed.skin, batch, options);
  }

  /** Neighbor-list counters: builds so far, pairs and bytes held now. */
  neighborStats(): NativeNeighborStats {
    return this.#native.neighborStats();
  }

  /** B×9 virial W = Σ_pairs d⊗F (energy units) of the last compute with `stress: true`; σ = −W/V. */
  virial(): Float64Array {
    return this.#native.virial();
  }

  describe(): ModelDescription {
    const { shift, switchOn, skin, pairs } = this.#parsed;
    return {
      name: this.name,
      cutoff: this.cutoff,
      skin: skin ?? 'units default (2.0 Å metal, 0.3 σ lj)',
      shift,
      switchOn: switchOn === 0 ? null : switchOn,
      pairs: structuredClone(pairs),
    };
  }
}
