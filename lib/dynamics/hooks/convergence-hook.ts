// ConvergenceHook (docs/dynamics.md): per-system criteria, ANDed; converged systems move from sourceStatus to
// targetStatus, and a hook given neither only detects (nvalchemi's ConvergenceHook, whose migration needs
// both). Built-in keys are evaluated inside the native loop; a criterion with `customOp` or `reduceDims`
// makes the hook run from JS at AFTER_STEP instead.
import type { Batch } from '../../data/index.js';
import { nativeBatchOf } from '../../data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { registerHookType, type DynamicsContext } from '../../hooks/index.js';
import type { NativeConvergenceArgs } from '../../native/index.js';
import { isStatus } from '../parameters.js';
import { DynamicsStage } from '../stage.js';
import { checkReduceDims, criterionInput, criterionValues, DERIVED_KEYS, PER_ATOM_KEYS, PER_SYSTEM_KEYS, type ReduceOp } from './criterion-values.js';
import { showText, showValue } from '../../describe-value.js';

export type { ReduceOp } from './criterion-values.js';

/**
 * What a criterion's `customOp` receives besides the raw values.
 *
 * @example
 * const op = (values: Float64Array, systemIndex: Int32Array, info: CustomOpInfo) => new Array(info.numSystems).fill(true);
 */
export interface CustomOpInfo {
  /** Systems in the batch: the length of the verdict to return. */
  readonly numSystems: number;
  /** Values per row of `values` (3 for forces, 9 for stress, 1 for energy or fmax). */
  readonly width: number;
  /** The criterion's threshold. */
  readonly threshold: number;
}

/** Keys the native loop evaluates (with `reduceOp` none, norm, systemNorm or any entry op). */
export const CONVERGENCE_KEYS: readonly string[] = ['forces', 'fmax', 'velocities', 'energy', 'energyChange', 'kineticEnergy', 'temperature', 'stress'];

/**
 * One criterion: the system's value of `key` must be ≤ threshold (or `customOp` decides). `key` is any
 * per-atom or per-system array of the batch (registered extra fields included), or fmax, energyChange,
 * kineticEnergy, temperature.
 */
export interface ConvergenceCriterion {
  key: string;
  threshold: number;
  /**
   * The reduction within each entry (an atom's vector, a system's row), before the largest over the
   * system's atoms (nvalchemi's meaning); 'systemNorm' is the norm over the whole system, √Σ|v_i|².
   * Without it, an entry reduces to its largest component.
   */
  reduceOp?: ReduceOp;
  /**
   * The dimensions `reduceOp` reduces, numbered as nvalchemi shapes the key: `[N, 3]` for forces (0 the
   * system's atoms, 1 or -1 the components), `[B, 3, 3]` for stress and cell (1 the rows, 2 or -1 the
   * columns). After the reduction each system takes the largest value left. Without it, `reduceOp` reduces
   * each entry (an atom's vector, a system's row). Makes the hook run from JS.
   */
  reduceDims?: number | readonly number[];
  /**
   * Decides every system from the key's raw values, as nvalchemi's `custom_op` does: `values` is the key's
   * array (N×width for a per-atom key, B×width for a per-system one), `systemIndex` the system of each row;
   * returns one verdict per system (truthy: converged). `reduceOp` and `threshold` are not applied. Makes
   * the hook run from JS.
   */
  customOp?: (values: Float64Array, systemIndex: Int32Array, info: CustomOpInfo) => ArrayLike<boolean | number>;
  /**
   * Only with key 'stress' and no `reduceOp`: the target pressure P (the batch's units, a CellFilter's
   * scalarPressure; default 0). The system's value is max_ij |σ_ij − σ_target,ij| with σ_target = −P·I. With
   * a `reduceOp`, 'stress' is reduced as any per-system row instead.
   */
  pressure?: number;
}

/** Options of `new ConvergenceHook`. */
export interface ConvergenceHookOptions {
  /** The criteria, ANDed, or one criterion (default: the largest per-atom force norm ≤ 0.05, as nvalchemi's). */
  criteria?: readonly ConvergenceCriterion[] | ConvergenceCriterion;
  /** Check every `frequency` steps (default 1). */
  frequency?: number;
  /**
   * Only systems with this status are checked (default 0 when targetStatus is given, or for an engine's
   * own `convergence`; every system for a hook that only detects).
   */
  sourceStatus?: number;
  /**
   * Converged systems get this status (default: the engine's exitStatus, 1 outside an engine). `null`
   * makes the hook detect-only: converged systems keep their status and are reported once, to ON_CONVERGE
   * hooks and in `RunResult.converged`. A hook given neither status only detects too, except as an
   * engine's `convergence`, which is what finishes its systems.
   */
  targetStatus?: number | null;
  name?: string;
}

/** nvalchemi's default criterion: the largest per-atom force norm ≤ 0.05 (eV/Å in metal units). */
const DEFAULT_FMAX = 0.05;

const REDUCE_OPS: readonly ReduceOp[] = ['min', 'max', 'norm', 'mean', 'sum', 'systemNorm'];
const HOOK_KEYS: readonly string[] = ['criteria', 'frequency', 'sourceStatus', 'targetStatus', 'name'];
// fromFmax and the like build the criteria themselves.
const SHORTCUT_KEYS: readonly string[] = HOOK_KEYS.filter((key) => key !== 'criteria');

// Values that are norms, changes or temperatures are never negative: a negative threshold could never be
// met, and the run would go on to its step limit.
function neverNegative(c: ConvergenceCriterion): boolean {
  if (['fmax', 'energyChange', 'kineticEnergy', 'temperature'].includes(c.key)) return true;
  if (c.key === 'stress' && c.reduceOp === undefined) return true;
  return c.reduceOp === 'norm' || c.reduceOp === 'systemNorm';
}

/**
 * Marks systems converged when every criterion holds.
 *
 * @example
 * const fire = new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.05) });
 * const both = new ConvergenceHook({ criteria: [
 *   { key: 'forces', threshold: 0.05, reduceOp: 'max' },
 *   { key: 'energyChange', threshold: 1e-6 },
 * ] });
 */
export class ConvergenceHook {
  readonly stage: DynamicsStage = DynamicsStage.AFTER_STEP;
  readonly frequency: number;
  readonly name: string;
  readonly criteria: readonly ConvergenceCriterion[];
  /** The status of the systems checked; undefined when not given (see ConvergenceHookOptions). */
  readonly sourceStatus: number | undefined;
  readonly targetStatus: number | null | undefined;
  readonly #previous: { energy?: Float64Array } = {};
  // Detect-only: systems already reported (by systemId), so each is reported once.
  readonly #detected = new Set<number>();
  #newly: { step: number; mask: Uint8Array } | undefined;

  constructor(options: ConvergenceHookOptions = {}) {
    const owner = 'ConvergenceHook';
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_CRITERIA', `${owner}: options must be an object`, { field: 'options', value: options });
    }
    checkKeys(owner, options, HOOK_KEYS);
    const given = options.criteria ?? [{ key: 'forces', threshold: DEFAULT_FMAX, reduceOp: 'norm' }];
    // One criterion object is a list of one, as nvalchemi takes a single criterion.
    const criteria: readonly ConvergenceCriterion[] = given !== null && typeof given === 'object' && !Array.isArray(given) ? [given as ConvergenceCriterion] : (given as readonly ConvergenceCriterion[]);
    if (!Array.isArray(criteria) || criteria.length === 0) {
      throw new HookmdTypeError('INVALID_CRITERIA', `${owner}: criteria must be a criterion { key, threshold } or a non-empty array of them`, { field: 'criteria' });
    }
    criteria.forEach((c, i) => {
      checkKeys(owner, c, ['key', 'threshold', 'reduceOp', 'reduceDims', 'customOp', 'pressure'], `criteria[${i}].`);
      if (typeof c?.key !== 'string' || c.key === '') {
        throw new HookmdError('INVALID_CRITERION', `${owner}: criteria[${i}].key must name a batch array (${[...PER_ATOM_KEYS, ...PER_SYSTEM_KEYS, ...DERIVED_KEYS].join(', ')}, or a registered field), got ${showValue(c?.key)}`, {
          field: `criteria[${i}].key`,
          value: c?.key,
        });
      }
      if (typeof c.threshold !== 'number' || Number.isNaN(c.threshold)) {
        throw new HookmdRangeError('INVALID_CRITERION', `${owner}: criteria[${i}].threshold must be a number, got ${showText(c.threshold)}`, {
          field: `criteria[${i}].threshold`,
          value: c.threshold,
        });
      }
      if (c.threshold < 0 && c.customOp === undefined && neverNegative(c)) {
        throw new HookmdRangeError('INVALID_CRITERION', `${owner}: criteria[${i}].threshold must be ≥ 0 for key ${c.key}, got ${showText(c.threshold)}`, {
          field: `criteria[${i}].threshold`,
          value: c.threshold,
        });
      }
      if (c.pressure !== undefined && (c.key !== 'stress' || typeof c.pressure !== 'number' || !Number.isFinite(c.pressure) || c.reduceOp !== undefined)) {
        throw new HookmdError('INVALID_CRITERION', `${owner}: criteria[${i}].pressure must be a finite number, on a 'stress' criterion without reduceOp`, {
          field: `criteria[${i}].pressure`,
          value: c.pressure,
        });
      }
      if (c.reduceOp !== undefined && !REDUCE_OPS.includes(c.reduceOp)) {
        throw new HookmdError('INVALID_CRITERION', `${owner}: criteria[${i}].reduceOp must be one of ${REDUCE_OPS.join(', ')}`, {
          field: `criteria[${i}].reduceOp`,
          value: c.reduceOp,
        });
      }
      if (c.customOp !== undefined && typeof c.customOp !== 'function') {
        throw new HookmdTypeError('INVALID_CRITERION', `${owner}: criteria[${i}].customOp must be a function (values, systemIndex, info) => verdicts`, {
          field: `criteria[${i}].customOp`,
          value: c.customOp,
        });
      }
      if (c.reduceDims !== undefined) checkReduceDims(owner, `criteria[${i}]`, c);
    });
    const frequency = options.frequency ?? 1;
    if (!Number.isInteger(frequency) || frequency < 1) {
      throw new HookmdRangeError('INVALID_FREQUENCY', `${owner}: frequency must be an integer ≥ 1, got ${showText(frequency)}`, { field: 'frequency', value: frequency });
    }
    this.frequency = frequency;
    this.criteria = criteria.map((c) => ({ ...c }));
    if (options.sourceStatus !== undefined && !isStatus(options.sourceStatus)) {
      throw new HookmdRangeError('INVALID_STATUS', `${owner}: sourceStatus must be an integer in the int32 range, got ${showText(options.sourceStatus)}`, { field: 'sourceStatus', value: options.sourceStatus });
    }
    this.sourceStatus = options.sourceStatus;
    if (options.targetStatus !== undefined && options.targetStatus !== null && !isStatus(options.targetStatus)) {
      throw new HookmdRangeError('INVALID_STATUS', `${owner}: targetStatus must be an integer in the int32 range, or null, got ${showText(options.targetStatus)}`, { field: 'targetStatus', value: options.targetStatus });
    }
    this.targetStatus = options.targetStatus;
    this.name = options.name ?? 'ConvergenceHook';
  }

  /** Converged when the largest per-atom force norm is ≤ `threshold` (`{ key: 'forces', reduceOp: 'norm' }`). */
  static fromForces(threshold: number, options: Omit<ConvergenceHookOptions, 'criteria'> = {}): ConvergenceHook {
    checkKeys('ConvergenceHook.fromForces', options, SHORTCUT_KEYS);
    return new ConvergenceHook({ ...options, criteria: [{ key: 'forces', threshold, reduceOp: 'norm' }] });
  }

  /** The same test as `fromForces`, through the derived key `fmax` (default threshold 0.05, as nvalchemi's). */
  static fromFmax(threshold: number = DEFAULT_FMAX, options: Omit<ConvergenceHookOptions, 'criteria'> = {}): ConvergenceHook {
    checkKeys('ConvergenceHook.fromFmax', options, SHORTCUT_KEYS);
    return new ConvergenceHook({ ...options, criteria: [{ key: 'fmax', threshold }] });
  }

  /**
   * Converged when the largest per-atom force norm is ≤ `fmax` and every stress component is within
   * `stress` of the target −P·I (`pressure` P, default 0): the test of a variable-cell relaxation.
   */
  static fromFmaxAndStress(fmax: number, stress: number, options: Omit<ConvergenceHookOptions, 'criteria'> & { pressure?: number } = {}): ConvergenceHook {
    checkKeys('ConvergenceHook.fromFmaxAndStress', options, [...SHORTCUT_KEYS, 'pressure']);
    const { pressure, ...rest } = options;
    return new ConvergenceHook({ ...rest, criteria: [{ key: 'fmax', threshold: fmax }, { key: 'stress', threshold: stress, pressure: pressure ?? 0 }] });
  }

  /** True when every criterion uses a key the native loop knows, without customOp or reduceDims. */
  get isNative(): boolean {
    return this.criteria.every((c) => c.customOp === undefined && c.reduceDims === undefined && CONVERGENCE_KEYS.includes(c.key));
  }

  /** True for a hook that only detects: `targetStatus: null`, or neither status given (as nvalchemi's). */
  get detectOnly(): boolean {
    return this.targetStatus === null || (this.targetStatus === undefined && this.sourceStatus === undefined);
  }

  /**
   * @internal This hook as an engine's own `convergence`, which finishes the systems it passes: a hook
   * given neither status becomes one that moves status 0 to the engine's exitStatus.
   */
  asEngineCriterion(): ConvergenceHook {
    if (this.targetStatus !== undefined || this.sourceStatus !== undefined) return this;
    return new ConvergenceHook({ criteria: this.criteria, frequency: this.frequency, sourceStatus: 0, name: this.name });
  }

  /** Reads the stress, which the steps it checks must then compute. */
  get needs(): readonly string[] {
    return this.criteria.some((c) => c.key === 'stress') ? ['stress'] : [];
  }

  /** @internal The native form, for an engine whose exitStatus is `exitStatus`. */
  nativeSpec(exitStatus: number): NativeConvergenceArgs {
    return {
      criteria: this.criteria.map((c) => {
        if (c.key === 'fmax') return { key: 'forces', threshold: c.threshold, op: 'norm' };
        if (isStressDeviation(c)) return { key: 'stressDeviation', threshold: c.threshold, op: 'none', target: c.pressure ?? 0 };
        return { key: c.key, threshold: c.threshold, op: c.reduceOp ?? 'none' };
      }),
      frequency: this.frequency,
      phase: 0,
      sourceStatus: this.detectOnly ? (this.sourceStatus ?? null) : (this.sourceStatus ?? 0),
      targetStatus: this.detectOnly ? null : (this.targetStatus ?? exitStatus),
    };
  }

  /** Evaluates the criteria from JS (custom workflows, and criteria with customOp or reduceDims). */
  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    const batch = ctx.batch;
    const meets = new Uint8Array(batch.numSystems).fill(1);
    for (const c of this.criteria) {
      // An engine's scalars know its frozen atoms, so the temperature is the one its logs report.
      const scalars = (ctx as { scalars?: { temperature: Float64Array } }).scalars;
      const verdict = this.#verdict(batch, c, scalars?.temperature);
      for (let s = 0; s < meets.length; s++) if (!verdict[s]) meets[s] = 0;
    }
    const mask = new Uint8Array(batch.numSystems);
    const checked = (status: ArrayLike<number>, s: number): boolean => meets[s] === 1 && (this.sourceStatus === undefined || status[s] === this.sourceStatus);
    if (this.detectOnly) {
      const [status, ids] = [batch.read('status'), batch.read('systemId')];
      for (let s = 0; s < mask.length; s++) {
        if (!checked(status, s) || this.#detected.has(ids[s])) continue;
        this.#detected.add(ids[s]);
        mask[s] = 1;
      }
    } else {
      const target = this.targetStatus ?? ((ctx.workflow as { exitStatus?: number } | undefined)?.exitStatus ?? 1);
      const source = this.sourceStatus ?? 0;
      const status = batch.status;
      for (let s = 0; s < mask.length; s++) {
        if (status[s] === source && meets[s]) {
          status[s] = target as number;
          mask[s] = 1;
        }
      }
    }
    this.#newly = { step: ctx.stepCount, mask };
  }

  /** @internal Whether the JS evaluation at `step` converged some system. */
  convergedAt(step: number): boolean {
    return this.#newly !== undefined && this.#newly.step === step && this.#newly.mask.some((v) => v === 1);
  }

  /** @internal The systems the JS evaluation at `step` converged. */
  newlyConvergedAt(step: number): Uint8Array | undefined {
    return this.#newly?.step === step ? this.#newly.mask : undefined;
  }

  /** One verdict per system for criterion `c`: customOp's on the raw values, else value ≤ threshold. */
  #verdict(batch: Batch, c: ConvergenceCriterion, temperature: Float64Array | undefined): ArrayLike<boolean | number> {
    const known = [...PER_ATOM_KEYS, ...PER_SYSTEM_KEYS, ...DERIVED_KEYS, 'velocities'];
    if (!known.includes(c.key) && !batch.extraFields.includes(c.key)) {
      throw new HookmdError('INVALID_CRITERION', `${this.name}: criterion key ${showValue(c.key)} is not an array of the batch (${known.join(', ')}, or a registered field: ${batch.extraFields.join(', ') || 'none'})`, {
        field: 'key',
        value: c.key,
      });
    }
    if (c.customOp !== undefined) {
      const input = criterionInput(batch, nativeBatchOf(batch), c.key, this.#previous);
      const verdict = c.customOp(input.values, input.systemIndex, { numSystems: batch.numSystems, width: input.width, threshold: c.threshold });
      if (verdict === null || typeof verdict !== 'object' || verdict.length !== batch.numSystems) {
        throw new HookmdError('INVALID_CRITERION', `${this.name}: customOp of key ${showValue(c.key)} must return one verdict per system (${batch.numSystems}), got ${verdict === null || typeof verdict !== 'object' ? typeof verdict : `${verdict.length}`}`, {
          field: 'customOp',
          value: verdict === null || typeof verdict !== 'object' ? verdict : verdict.length,
        });
      }
      return verdict;
    }
    const values = isStressDeviation(c)
      ? stressDeviation(batch.read('stress'), c.pressure ?? 0)
      : c.key === 'temperature' && temperature !== undefined
        ? temperature
        : criterionValues(batch, nativeBatchOf(batch), c, this.#previous);
    return Uint8Array.from(values, (v) => (v <= c.threshold ? 1 : 0));
  }
}

/** The stress criterion of variable-cell relaxation: key 'stress' without a reduceOp. */
function isStressDeviation(c: ConvergenceCriterion): boolean {
  return c.key === 'stress' && c.reduceOp === undefined;
}

/** max_ij |σ_ij + P·δ_ij| per system: the distance of each stress from the hydrostatic target −P·I. */
function stressDeviation(stress: Float64Array, pressure: number): Float64Array {
  const out = new Float64Array(stress.length / 9);
  for (let s = 0; s < out.length; s++) {
    for (let k = 0; k < 9; k++) out[s] = Math.max(out[s], Math.abs(stress[9 * s + k] + (k % 4 === 0 ? pressure : 0)));
  }
  return out;
}

registerHookType('ConvergenceHook', (args) => new ConvergenceHook(args as unknown as ConvergenceHookOptions));
