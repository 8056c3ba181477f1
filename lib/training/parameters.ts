// The trainable parameters of a pair model: one row per species pair, each with the parameters of the
// model's declaration (LJ ε, σ; Morse D, α, r₀; lib/models/pair-models.ts), named 'Ar-Ar.epsilon' (or
// 'epsilon' for a model without a pair table).
// The optimizer works on u = ln θ, so every parameter stays > 0 whatever step it takes (see
// docs/training.md for why log-parametrization rather than projection).
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { atomicNumber } from '../data/index.js';
import { MODEL_KINDS, NativePairModel, PAIR_MODELS, pairModelNamed } from '../models/index.js';
import type { Model, PairModel, PairModelDeclaration, PairModelSpec, PairModelType } from '../models/index.js';
import type { NativeBatch } from '../native/binding.js';
import { loadBinding } from '../native/index.js';
import type { BoundReferences, NativeLossHandle, TrainableSpace } from './trainable-space.js';
import { showValue } from '../describe-value.js';

export type { PairModelSpec, PairModelType } from '../models/index.js';

/**
 * Parameter values (or gradients) by name: `'Ar-Ar.epsilon'`, `'Ar-Kr.sigma'`, or `'epsilon'` for a
 * model without a pair table.
 *
 * @example
 * const values: ParameterValues = { 'Ar-Ar.epsilon': 0.0104, 'Ar-Ar.sigma': 3.4 };
 */
export type ParameterValues = Record<string, number>;

/** "lj (LennardJones) or morse (Morse)": the kinds a Trainer fits, for messages, joined by `word`. */
function fitted(word: string): string {
  const names = PAIR_MODELS.map((model) => `${model.kind} (${model.name})`);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${word} ${names[names.length - 1]}`;
}

interface Row {
  readonly label: string;
  readonly z1: number;
  readonly z2: number;
  readonly cutoff: number;
}

/** @internal The parameter layout of one model: names, native rows, and the model's fixed settings. */
export class ParameterSpace implements TrainableSpace {
  readonly variables = 'ln' as const;
  readonly modelType: PairModelType;
  readonly #names: readonly string[];
  /** Parameter names, row by row, in the order of θ and of the gradient. */
  readonly names: readonly string[];
  readonly paramsPerPair: number;
  /** [z1, z2, cutoff] per row, for the native loss. */
  readonly rows: Float64Array;
  readonly shift: boolean;
  /** 0 when the model has no switch. */
  readonly switchOn: number;
  readonly skin: number | undefined;
  /** θ of the model the space was made from. */
  readonly initial: Float64Array;
  readonly #rows: readonly Row[];

  private constructor(declaration: PairModelDeclaration, rows: readonly Row[], values: number[], settings: { shift: boolean; switchOn: number; skin: number | undefined }) {
    this.modelType = declaration.name as PairModelType;
    this.#names = declaration.parameters.map((rule) => rule.name);
    this.paramsPerPair = this.#names.length;
    this.#rows = rows;
    const wildcard = rows.length === 1 && rows[0].label === 'default';
    this.names = Object.freeze(rows.flatMap((row) => this.#names.map((name) => (wildcard ? name : `${row.label}.${name}`))));
    this.rows = Float64Array.from(rows.flatMap((row) => [row.z1, row.z2, row.cutoff]));
    this.shift = settings.shift;
    this.switchOn = settings.switchOn;
    this.skin = settings.skin;
    this.initial = Float64Array.from(values);
  }

  /** The space of a pair model (PAIR_MODELS); every parameter must be > 0 (it is fitted as ln θ). */
  static fromModel(model: unknown, owner: string): ParameterSpace {
    if (!(model instanceof NativePairModel)) {
      throw new HookmdTypeError('UNSUPPORTED_MODEL', `${owner}: model must be a ${PAIR_MODELS.map((declared) => declared.name).join(' or ')} model (the loss has analytic parameter gradients for those only)`, {
        field: 'model',
        value: (model as Model | null)?.name,
      });
    }
    const declaration = model.declaration;
    const described = model.describe();
    const pairs = described.pairs as Record<string, Record<string, number>>;
    const rows: Row[] = [];
    const values: number[] = [];
    for (const [label, entry] of Object.entries(pairs)) {
      const [z1, z2] = label === 'default' ? [0, 0] : label.split('-').map((symbol) => atomicNumber(symbol));
      rows.push({ label, z1, z2, cutoff: entry.cutoff });
      for (const { name } of declaration.parameters) {
        const value = entry[name];
        if (!(value > 0)) {
          const field = label === 'default' ? name : `${label}.${name}`;
          throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: model parameter ${field} is ${value}; a fitted parameter must be > 0 (it is fitted as ln θ)`, {
            field,
            value,
          });
        }
        values.push(value);
      }
    }
    const switchOn = described.switchOn;
    return new ParameterSpace(declaration, rows, values, {
      shift: described.shift === true,
      switchOn: typeof switchOn === 'number' ? switchOn : 0,
      skin: model.skin,
    });
  }

  get size(): number {
    return this.names.length;
  }

  bindLoss(batch: NativeBatch, refs: BoundReferences): NativeLossHandle {
    const native = new (loadBinding().PairLoss)(this.modelType, this.rows, this.shift, this.switchOn);
    native.bind(batch, refs.energy, refs.forces, refs.stress, refs.present);
    return { forward: (t, s) => native.forward(t, s), loss: (w, g) => native.loss(w, g), predictions: () => native.predictions(), activations: () => null };
  }

  plainValues(theta: ArrayLike<number>): Readonly<ParameterValues> {
    return this.values(theta);
  }

  gradientRecord(flat: ArrayLike<number>): ParameterValues {
    return { ...this.values(flat) };
  }

  readGradients(gradients: unknown): Float64Array {
    if (gradients === null || typeof gradients !== 'object') {
      throw new HookmdTypeError('INVALID_GRADIENT', 'Trainer: ctx.gradients must stay an object of numbers by parameter name', { field: 'gradients', value: gradients });
    }
    return Float64Array.from(this.names, (name) => {
      const value = (gradients as Record<string, unknown>)[name];
      if (typeof value !== 'number') {
        throw new HookmdTypeError('INVALID_GRADIENT', `Trainer: gradients['${name}'] must be a number after BEFORE_OPTIMIZER_STEP, got ${showValue(value)}`, {
          field: name,
          value,
        });
      }
      return value;
    });
  }

  scalarName(p: number): string {
    return this.names[p];
  }

  /** A frozen record of θ by name. */
  values(theta: ArrayLike<number>): Readonly<ParameterValues> {
    const out: ParameterValues = {};
    this.names.forEach((name, p) => {
      out[name] = theta[p];
    });
    return Object.freeze(out);
  }

  /** θ from a record holding every name (checked: finite and > 0). */
  fromValues(values: Readonly<ParameterValues>, owner: string): Float64Array {
    if (values === null || typeof values !== 'object') {
      throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: parameters must be an object of values by name`, { field: 'parameters', value: values });
    }
    return Float64Array.from(this.names, (name) => {
      const value = values[name];
      if (typeof value !== 'number' || !(Number.isFinite(value) && value > 0)) {
        throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: parameters['${name}'] must be a finite number > 0, got ${showValue(value)}`, {
          field: name,
          value,
        });
      }
      return value;
    });
  }

  /** The model's constructor options with parameters θ (cutoffs, shift, switch and skin unchanged). */
  spec(theta: ArrayLike<number>): PairModelSpec {
    const names = this.#names;
    const entry = (row: number): Record<string, number> => Object.fromEntries(names.map((name, q) => [name, theta[row * names.length + q]]));
    const common = {
      ...(this.shift ? { shift: true } : {}),
      ...(this.switchOn > 0 ? { switchOn: this.switchOn } : {}),
      ...(this.skin === undefined ? {} : { skin: this.skin }),
    };
    if (this.#rows.length === 1 && this.#rows[0].label === 'default') {
      return { type: this.modelType, ...entry(0), cutoff: this.#rows[0].cutoff, ...common } as PairModelSpec;
    }
    const pairs = Object.fromEntries(this.#rows.map((row, r) => [row.label, { ...entry(r), cutoff: row.cutoff }]));
    return { type: this.modelType, pairs, ...common } as PairModelSpec;
  }

  /** A new model of the same kind with parameters θ. */
  toModel(theta: ArrayLike<number>): PairModel {
    return modelFromSpec(this.spec(theta), 'Trainer');
  }
}

/**
 * Builds a pair model (PAIR_MODELS) from `{ type, ...options }` (config files), with the model names of
 * the command line: `lj`, `LennardJones`, `morse`, `Morse` (any case).
 *
 * @example
 * modelFromSpec({ type: 'Morse', D: 0.34, alpha: 1.36, r0: 2.87, cutoff: 7 }, 'config');
 * modelFromSpec({ type: 'lj', epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }, 'config');
 */
export function modelFromSpec(spec: unknown, owner: string): PairModel {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    const kinds = PAIR_MODELS.map((model) => `'${model.kind}'`).join(' | ');
    throw new HookmdTypeError('INVALID_MODEL', `${owner}: model must be { type: ${kinds}, ...options }`, { field: 'model', value: spec });
  }
  const { type, ...options } = spec as Record<string, unknown>;
  const kind = MODEL_KINDS.resolve(type);
  const declaration = kind === undefined ? undefined : pairModelNamed(kind);
  if (declaration !== undefined) return declaration.create(options);
  const problem = kind === undefined
    ? `model.type must be ${fitted('or')}, got ${showValue(type)}`
    : `a Trainer fits ${fitted('and')} models, whose loss has analytic parameter gradients; not ${kind}`;
  throw new HookmdError('UNSUPPORTED_MODEL', `${owner}: ${problem}`, { field: 'model.type', value: type });
}
