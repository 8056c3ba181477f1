// GradientMonitorHook: the norm, the largest entry and percentiles of |∂L/∂u| over the parameters that a
// filter selects, each time it fires; written to ctx.metrics (grad_norm, grad_max, grad_p50, …) and to a
// callback. Register it before a GradientClipHook to see the gradients before clipping.
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { closestKey } from '../../option-keys.js';
import { registerHookType, type ErrorPolicy } from '../../hooks/index.js';
import type { TrainingHookContext } from '../context.js';
import { BUILTIN_OPTION_KEYS, builtinOptions, type BuiltinHookOptions } from './builtin-options.js';
import { checkKeys, integerOption, numberOption, stringOption } from '../options.js';
import { trainingStage, TrainingStage } from '../stage.js';
import type { ParameterTensors } from '../trainable-space.js';
import { gradientEntries, gradientNorm, histogram, percentile } from './gradient-stats.js';
import { showValue } from '../../describe-value.js';

/**
 * What one firing measured.
 *
 * @example
 * monitor.last; // { step: 40, epoch: 4, norm: 0.031, max: 0.03, percentiles: { 50: 0.008, 90: 0.024 }, values: {…} }
 */
export interface GradientStats {
  readonly step: number;
  readonly epoch: number;
  readonly norm: number;
  readonly max: number;
  /** |gradient| percentiles by percent. */
  readonly percentiles: Readonly<Record<number, number>>;
  /** The selected gradients by name (copies: a number per parameter of a pair model, an array per tensor of a network). */
  readonly values: Readonly<ParameterTensors>;
  /** Per selected parameter (a network's tensor, `layers.0.weight`): its norm, largest |entry| and percentiles. */
  readonly parameters: Readonly<Record<string, TensorGradientStats>>;
  /** With the `histogram` option: per selected parameter, the counts of its entries in each bin. */
  readonly histograms: Readonly<Record<string, GradientHistogram>> | null;
}

/**
 * The gradient statistics of one parameter (tensor).
 *
 * @example
 * monitor.last?.parameters['layers.0.weight']; // { norm: 0.02, max: 0.004, percentiles: { 50: 0.0003, … } }
 */
export interface TensorGradientStats {
  readonly norm: number;
  readonly max: number;
  readonly percentiles: Readonly<Record<number, number>>;
}

/**
 * A histogram of gradient entries: counts[k] entries lie in [edges[k], edges[k + 1]) (the last bin closed),
 * as numpy.histogram counts them; entries outside the edges are not counted.
 *
 * @example
 * monitor.last?.histograms?.['layers.0.weight']; // { edges: [-0.01, -0.005, 0, 0.005, 0.01], counts: [3, 410, 452, 15] }
 */
export interface GradientHistogram {
  readonly edges: readonly number[];
  readonly counts: readonly number[];
}

/**
 * Options of `new GradientMonitorHook`.
 *
 * @example
 * const options: GradientMonitorOptions = { filter: '\\.sigma$', percentiles: [50, 99], frequency: 10 };
 */
export interface GradientMonitorOptions extends BuiltinHookOptions {
  /**
   * Which parameters: a regular expression (or its source), a list of names, or a predicate (default all).
   * A listed name selects that parameter, or every parameter of that name in a pair table (`'epsilon'`
   * selects `'Ar-Ar.epsilon'`, `'Ar-Kr.epsilon'`, …) or of that pair (`'Ar-Ar'`). A listed name that
   * selects nothing, or a filter that selects no parameter, is an error at the first measurement.
   */
  filter?: string | RegExp | readonly string[] | ((name: string) => boolean);
  /** Percentiles of |gradient| to report, in [0, 100] (default [50, 90, 99]). */
  percentiles?: readonly number[];
  /** 2 (default) or 'inf'. */
  normType?: 2 | 'inf';
  /** BEFORE_OPTIMIZER_STEP (default) or AFTER_LOSS, AFTER_STEP, … */
  stage?: TrainingStage | keyof typeof TrainingStage;
  frequency?: number;
  /**
   * Histograms of each selected parameter's gradient entries into the stats (and the writer): `{ edges }`
   * (ascending bin edges), or `{ bins, range }`: `bins` equal bins over `range` ([lo, hi]; default
   * ±max |entry| of that parameter at that firing).
   */
  histogram?: { readonly bins: number; readonly range?: readonly [number, number] } | { readonly edges: readonly number[] };
  /** Receives every measurement. */
  writer?: (stats: GradientStats) => void;
  name?: string;
}

/**
 * Measures the gradients (with respect to ln θ) of the selected parameters.
 *
 * @example
 * const grads = new GradientMonitorHook({ filter: /epsilon/, writer: (s) => console.log(s.step, s.norm) });
 */
export class GradientMonitorHook {
  readonly stage: TrainingStage;
  readonly frequency: number;
  /** Built-in hooks run after user hooks at every stage. */
  readonly tier = 'builtin' as const;
  readonly order: number;
  readonly errorPolicy: ErrorPolicy;
  readonly name: string;
  readonly percentiles: readonly number[];
  readonly normType: 2 | 'inf';
  readonly config: Readonly<Record<string, unknown>>;
  /** The last measurement, or null. */
  last: GradientStats | null = null;
  readonly #select: (name: string) => boolean;
  readonly #listed: readonly string[] | undefined;
  #checked = false;
  readonly #writer: ((stats: GradientStats) => void) | undefined;
  readonly #histogram: HistogramOption | null;

  constructor(options: GradientMonitorOptions = {}) {
    const owner = 'GradientMonitorHook';
    const given = checkKeys(owner, options, ['filter', 'percentiles', 'normType', 'histogram', 'stage', 'frequency', 'writer', 'name', ...BUILTIN_OPTION_KEYS]);
    const [select, filterConfig] = makeFilter(owner, given.filter);
    this.#select = select;
    this.#listed = Array.isArray(given.filter) ? [...(given.filter as string[])] : undefined;
    const percentiles = given.percentiles ?? [50, 90, 99];
    if (!Array.isArray(percentiles)) {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: percentiles must be an array of numbers in [0, 100]`, { field: 'percentiles', value: percentiles });
    }
    this.percentiles = Object.freeze(percentiles.map((q: unknown, i: number) => numberOption(owner, `percentiles[${i}]`, q, 0, 100)));
    const normType = given.normType ?? 2;
    if (normType !== 2 && normType !== 'inf') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: normType must be 2 or 'inf', got ${showValue(normType)}`, { field: 'normType', value: normType });
    }
    this.normType = normType;
    this.stage = trainingStage(given.stage ?? TrainingStage.BEFORE_OPTIMIZER_STEP, owner);
    this.frequency = integerOption(owner, 'frequency', given.frequency ?? 1, 1);
    if (given.writer !== undefined && typeof given.writer !== 'function') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: writer must be a function (stats) => void`, { field: 'writer', value: given.writer });
    }
    this.#writer = given.writer as ((stats: GradientStats) => void) | undefined;
    this.#histogram = histogramOption(owner, given.histogram);
    this.name = given.name === undefined ? owner : stringOption(owner, 'name', given.name);
    ({ order: this.order, errorPolicy: this.errorPolicy } = builtinOptions(owner, given));
    this.config = Object.freeze({
      type: owner, filter: filterConfig, percentiles: this.percentiles, normType: this.normType, ...(this.#histogram === null ? {} : { histogram: this.#histogram }), stage: this.stage, frequency: this.frequency, name: this.name,
    });
  }

  call(ctx: TrainingHookContext): void {
    const names = Object.keys(ctx.gradients).filter((name) => this.#select(name));
    if (!this.#checked && Object.keys(ctx.gradients).length > 0) {
      this.#checked = true;
      this.#checkSelection(Object.keys(ctx.gradients), names.length);
    }
    const values: ParameterTensors = {};
    const parameters: Record<string, TensorGradientStats> = {};
    const histograms: Record<string, GradientHistogram> = {};
    for (const name of names) {
      const value = ctx.gradients[name];
      values[name] = typeof value === 'number' ? value : value.slice();
      const entries = gradientEntries(ctx.gradients, [name]);
      parameters[name] = this.#summary(entries);
      if (this.#histogram !== null) {
        const edges = binEdges(this.#histogram, parameters[name].max);
        histograms[name] = Object.freeze({ edges, counts: histogram(entries, edges) });
      }
    }
    const overall = this.#summary(gradientEntries(ctx.gradients, names));
    const stats: GradientStats = {
      step: ctx.stepCount, epoch: ctx.epoch, norm: overall.norm, max: overall.max, percentiles: overall.percentiles, values, parameters,
      histograms: this.#histogram === null ? null : histograms,
    };
    this.last = stats;
    ctx.metrics.grad_norm = stats.norm;
    ctx.metrics.grad_max = stats.max;
    for (const q of this.percentiles) ctx.metrics[`grad_p${q}`] = overall.percentiles[q];
    // Per-tensor norms for loggers, where a parameter is a tensor (a pair model's are the entries above).
    for (const name of names) if (typeof ctx.gradients[name] !== 'number') ctx.metrics[`grad_norm/${name}`] = parameters[name].norm;
    this.#writer?.(stats);
  }

  #summary(entries: readonly number[]): TensorGradientStats {
    const sorted = entries.map(Math.abs).sort((a, b) => a - b);
    const percentiles: Record<number, number> = {};
    for (const q of this.percentiles) percentiles[q] = percentile(sorted, q);
    return { norm: gradientNorm(entries, this.normType), max: sorted.at(-1) ?? Number.NaN, percentiles };
  }

  // A filter that selects nothing would report a norm of 0 for ever: UNKNOWN_PARAMETER, naming them.
  #checkSelection(names: readonly string[], selected: number): void {
    const unmatched = this.#listed?.find((entry) => !names.some((name) => listedMatches(name, entry)));
    if (unmatched === undefined && selected > 0) return;
    const near = unmatched === undefined ? undefined : closestKey(unmatched, names);
    const what = unmatched === undefined ? 'the filter selects no parameter' : `filter entry ${showValue(unmatched)} names no parameter${near === undefined ? '' : ` (did you mean ${near.key}?)`}`;
    throw new HookmdError('UNKNOWN_PARAMETER', `${this.name}: ${what}; the parameters are ${names.join(', ')}`, { field: 'filter', value: unmatched ?? null, parameters: [...names] });
  }
}

type HistogramOption = { readonly bins: number; readonly range: readonly [number, number] | null } | { readonly edges: readonly number[] };

function histogramOption(owner: string, value: unknown): HistogramOption | null {
  if (value === undefined) return null;
  if (value !== null && typeof value === 'object' && 'edges' in value) {
    const { edges } = checkKeys(owner, value, ['edges'], 'histogram.');
    if (!Array.isArray(edges) || edges.length < 2 || edges.some((e, k) => typeof e !== 'number' || !Number.isFinite(e) || (k > 0 && !(e > (edges[k - 1] as number))))) {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: histogram.edges must be at least two finite, increasing numbers`, { field: 'histogram.edges', value: edges });
    }
    return Object.freeze({ edges: Object.freeze([...(edges as number[])]) });
  }
  const { bins, range } = checkKeys(owner, value, ['bins', 'range'], 'histogram.');
  const count = integerOption(owner, 'histogram.bins', bins, 1);
  if (range !== undefined && (!Array.isArray(range) || range.length !== 2 || !range.every(Number.isFinite) || !((range[1] as number) > (range[0] as number)))) {
    throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: histogram.range must be [lo, hi] with lo < hi`, { field: 'histogram.range', value: range });
  }
  return Object.freeze({ bins: count, range: range === undefined ? null : (Object.freeze([range[0], range[1]]) as readonly [number, number]) });
}

// The given edges, or `bins` equal bins over the range (±max, or [-1, 1] for an all-zero gradient).
function binEdges(option: HistogramOption, max: number): number[] {
  if ('edges' in option) return [...option.edges];
  const [lo, hi] = option.range ?? (max > 0 ? [-max, max] : [-1, 1]);
  return Array.from({ length: option.bins + 1 }, (_, k) => (k === option.bins ? hi : lo + ((hi - lo) * k) / option.bins));
}

// A listed name selects a parameter of that full name, of that parameter name ('epsilon' → 'Ar-Ar.epsilon')
// or of that pair ('Ar-Ar' → 'Ar-Ar.sigma').
function listedMatches(name: string, entry: string): boolean {
  return name === entry || name.endsWith(`.${entry}`) || name.startsWith(`${entry}.`);
}

// The filter as a predicate, and as it appears in the canonical config.
function makeFilter(owner: string, filter: unknown): [(name: string) => boolean, unknown] {
  if (filter === undefined) return [() => true, null];
  if (typeof filter === 'string' || filter instanceof RegExp) {
    const pattern = typeof filter === 'string' ? new RegExp(filter) : filter;
    return [(name) => pattern.test(name), pattern.source];
  }
  if (Array.isArray(filter) && filter.every((name) => typeof name === 'string')) {
    const names = filter as string[];
    return [(name) => names.some((entry) => listedMatches(name, entry)), [...filter]];
  }
  if (typeof filter === 'function') return [filter as (name: string) => boolean, 'function'];
  throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: filter must be a regular expression, a list of names or a predicate`, { field: 'filter', value: filter });
}

registerHookType('GradientMonitorHook', (args) => new GradientMonitorHook(args as GradientMonitorOptions));
