// ForceMatchingLoss: the trainer's loss as a standalone function of the parameters, for scripts that
// drive their own optimizer (or check gradients) without a Trainer.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import type { System } from '../data/index.js';
import type { TrainLosses } from '../hooks/index.js';
import type { PairModel } from '../models/index.js';
import { TrainingSet } from './dataset.js';
import { checkKeys } from './options.js';
import { resolveLossWeights, type LossWeights } from './loss-weights.js';
import { errorMetrics, type ErrorMetrics } from './metrics.js';
import { ParameterSpace, type ParameterValues } from './parameters.js';

/**
 * Options of `new ForceMatchingLoss`.
 *
 * @example
 * const options: ForceMatchingLossOptions = { model: lj, systems: reference, weights: { stress: 1 } };
 */
export interface ForceMatchingLossOptions {
  /** The model whose parameters are varied (its cutoffs, shift and switch stay fixed). */
  model: PairModel;
  /** Reference systems with `energy`, `forces` and/or `stress`. */
  systems: readonly System[];
  weights?: LossWeights;
  /** Units of the systems (default 'metal'). */
  units?: 'metal' | 'lj';
}

/**
 * One evaluation of the loss.
 *
 * @example
 * const { loss, losses, gradient, metrics } = fm.evaluate({ gradient: true });
 */
export interface LossEvaluation {
  readonly loss: number;
  /** The weighted terms (they add up to `loss`). */
  readonly losses: TrainLosses;
  /** ∂L/∂θ by parameter name, with respect to the physical parameters; present when asked for. */
  readonly gradient: Readonly<ParameterValues> | undefined;
  readonly metrics: ErrorMetrics;
}

/**
 * The force-matching loss of a LennardJones or Morse model over reference systems, with its analytic
 * gradient (native, threaded over systems; the result does not depend on the thread count).
 *
 * @example
 * const fm = new ForceMatchingLoss({ model: new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5 }), systems });
 * const at = fm.evaluate({ parameters: { epsilon: 0.0104, sigma: 3.4 }, gradient: true });
 * console.log(at.loss, at.gradient?.sigma, at.metrics.forcesRmse);
 */
export class ForceMatchingLoss {
  /** Parameter names, in the order of the model's pair table. */
  readonly parameterNames: readonly string[];
  /** The model's own parameter values. */
  readonly parameters: Readonly<ParameterValues>;
  readonly #space: ParameterSpace;
  readonly #set: TrainingSet;

  constructor(options: ForceMatchingLossOptions) {
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', 'ForceMatchingLoss: options must be an object', { field: 'options', value: options });
    }
    checkKeys('ForceMatchingLoss', options, ['model', 'systems', 'weights', 'units'], '', { lossWeights: 'weights' });
    this.#space = ParameterSpace.fromModel(options.model, 'ForceMatchingLoss');
    const weights = resolveLossWeights(options.weights, 'ForceMatchingLoss');
    this.#set = new TrainingSet(options.systems, this.#space, weights, options.units ?? 'metal', 'systems');
    this.parameterNames = this.#space.names;
    this.parameters = this.#space.values(this.#space.initial);
  }

  /** Systems in the reference set. */
  get size(): number {
    return this.#set.size;
  }

  /**
   * The loss at `parameters` (default: the model's) over `systems` (indices; default: all), with the
   * gradient when `gradient` is true.
   */
  evaluate(options: { parameters?: Readonly<ParameterValues>; systems?: ArrayLike<number>; gradient?: boolean } = {}): LossEvaluation {
    checkKeys('ForceMatchingLoss.evaluate', options, ['parameters', 'systems', 'gradient']);
    const theta = options.parameters === undefined ? this.#space.initial : this.#space.fromValues(options.parameters, 'ForceMatchingLoss.evaluate');
    const systems = options.systems === undefined ? Int32Array.from({ length: this.#set.size }, (_, s) => s) : Int32Array.from(options.systems);
    for (const s of systems) {
      if (!(s >= 0 && s < this.#set.size)) {
        throw new HookmdRangeError('INVALID_ARGUMENT', `ForceMatchingLoss.evaluate: system index ${s} is outside [0, ${this.#set.size})`, {
          field: 'systems',
          value: s,
        });
      }
    }
    const gradient = options.gradient === true ? new Float64Array(theta.length) : null;
    this.#set.forward(theta, systems);
    const stats = this.#set.loss(gradient);
    return {
      loss: stats.total,
      losses: Object.freeze({ energy: stats.energy, forces: stats.forces, stress: stats.stress }),
      gradient: gradient === null ? undefined : this.#space.values(gradient),
      metrics: errorMetrics(stats),
    };
  }
}
