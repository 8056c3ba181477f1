// ConvergenceHook (docs/dynamics.md): per-system criteria, ANDed; converged systems move from sourceStatus to
// targetStatus. Built-in keys are evaluated inside the native loop; a criterion with `customOp` makes the
// hook run from JS at AFTER_STEP instead.
import type { Batch } from '../../data/index.js';
import { nativeBatchOf } from '../../data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import type { DynamicsContext } from '../../hooks/index.js';
import type { NativeConvergenceArgs } from '../native-stepper.js';
import { DynamicsStage } from '../stage.js';

/** Reductions over a system's atoms (vector fields reduce their per-atom norms). */
export type ReduceOp = 'min' | 'max' | 'norm' | 'mean' | 'sum';

/** Keys evaluated natively: per-atom fields reduced per system, or per-system scalars. */
export const CONVERGENCE_KEYS: readonly string[] = ['forces', 'fmax', 'velocities', 'energy', 'energyChange', 'kineticEnergy', 'temperature'];

/** One criterion: the system's reduced `key` must be ≤ threshold (or `customOp` decides). */
export interface ConvergenceCriterion {
  key: string;
  threshold: number;
  /** How per-atom values reduce to one per system (default 'max'). */
  reduceOp?: ReduceOp;
  /** Decides per system from the reduced values; makes the hook run from JS. */
  customOp?: (values: Float64Array, threshold: number) => ArrayLike<boolean | number>;
}

/** Options of `new ConvergenceHook`. */
export interface ConvergenceHookOptions {
  criteria: readonly ConvergenceCriterion[];
  /** Check every `frequency` steps (default 1). */
  frequency?: number;
  /** Only systems with this status are checked (default 0). */
  sourceStatus?: number;
  /** Converged systems get this status (default: the engine's exitStatus, 1 outside an engine). */
  targetStatus?: number;
  name?: string;
}

const REDUCE_OPS: readonly ReduceOp[] = ['min', 'max', 'norm', 'mean', 'sum'];

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
  readonly sourceStatus: number;
  readonly targetStatus: number | undefined;
  #previousEnergy: Float64Array | undefined;
  #newly: { step: number; mask: Uint8Array } | undefined;

  constructor(options: ConvergenceHookOptions) {
    const owner = 'ConvergenceHook';
    if (options === null || typeof options !== 'object' || !Array.isArray(options.criteria) || options.criteria.length === 0) {
      throw new HookmdTypeError('INVALID_CRITERIA', `${owner}: criteria must be a non-empty array`, { field: 'criteria' });
    }
    checkKeys(owner, options, ['criteria', 'frequency', 'sourceStatus', 'targetStatus', 'name']);
    options.criteria.forEach((c, i) => {
      checkKeys(owner, c, ['key', 'threshold', 'reduceOp', 'customOp'], `criteria[${i}].`);
      if (typeof c?.key !== 'string' || (c.customOp === undefined && !CONVERGENCE_KEYS.includes(c.key))) {
        throw new HookmdError('INVALID_CRITERION', `${owner}: criteria[${i}].key must be one of ${CONVERGENCE_KEYS.join(', ')}, got ${JSON.stringify(c?.key)}`, {
          field: `criteria[${i}].key`,
          value: c?.key,
        });
      }
      if (typeof c.threshold !== 'number' || Number.isNaN(c.threshold)) {
        throw new HookmdRangeError('INVALID_CRITERION', `${owner}: criteria[${i}].threshold must be a number, got ${c.threshold}`, {
          field: `criteria[${i}].threshold`,
          value: c.threshold,
        });
      }
      // Every built-in value but the energy is a norm or a temperature, never negative: a negative
      // threshold could never be met, and the run would go on to its step limit.
      if (c.threshold < 0 && c.customOp === undefined && c.key !== 'energy') {
        throw new HookmdRangeError('INVALID_CRITERION', `${owner}: criteria[${i}].threshold must be ≥ 0 for key ${c.key}, got ${c.threshold}`, {
          field: `criteria[${i}].threshold`,
          value: c.threshold,
        });
      }
      if (c.reduceOp !== undefined && !REDUCE_OPS.includes(c.reduceOp)) {
        throw new HookmdError('INVALID_CRITERION', `${owner}: criteria[${i}].reduceOp must be one of ${REDUCE_OPS.join(', ')}`, {
          field: `criteria[${i}].reduceOp`,
          value: c.reduceOp,
        });
      }
    });
    const frequency = options.frequency ?? 1;
    if (!Number.isInteger(frequency) || frequency < 1) {
      throw new HookmdRangeError('INVALID_FREQUENCY', `${owner}: frequency must be an integer ≥ 1, got ${frequency}`, { field: 'frequency', value: frequency });
    }
    this.frequency = frequency;
    this.criteria = options.criteria.map((c) => ({ ...c }));
    this.sourceStatus = options.sourceStatus ?? 0;
    this.targetStatus = options.targetStatus;
    this.name = options.name ?? 'ConvergenceHook';
  }

  /** Converged when the largest per-atom force norm is ≤ `threshold`. */
  static fromForces(threshold: number, options: Omit<ConvergenceHookOptions, 'criteria'> = {}): ConvergenceHook {
    return new ConvergenceHook({ ...options, criteria: [{ key: 'forces', threshold, reduceOp: 'max' }] });
  }

  /** The same test as `fromForces`, computed from the forces without any precomputed fmax field. */
  static fromFmax(threshold: number, options: Omit<ConvergenceHookOptions, 'criteria'> = {}): ConvergenceHook {
    return new ConvergenceHook({ ...options, criteria: [{ key: 'fmax', threshold, reduceOp: 'max' }] });
  }

  /** True when every criterion uses a built-in key without customOp, so the native loop evaluates it. */
  get isNative(): boolean {
    return this.criteria.every((c) => c.customOp === undefined);
  }

  /** @internal The native form, for an engine whose exitStatus is `exitStatus`. */
  nativeSpec(exitStatus: number): NativeConvergenceArgs {
    return {
      criteria: this.criteria.map((c) => ({ key: c.key, threshold: c.threshold, op: c.reduceOp ?? 'max' })),
      frequency: this.frequency,
      phase: 0,
      sourceStatus: this.sourceStatus,
      targetStatus: this.targetStatus ?? exitStatus,
    };
  }

  /** Evaluates the criteria from JS (custom workflows, and criteria with customOp). */
  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    const batch = ctx.batch;
    const target = this.targetStatus ?? ((ctx.workflow as { exitStatus?: number } | undefined)?.exitStatus ?? 1);
    const meets = new Uint8Array(batch.numSystems).fill(1);
    for (const c of this.criteria) {
      const values = this.#values(batch, c);
      const verdict = c.customOp?.(values, c.threshold);
      for (let s = 0; s < meets.length; s++) {
        const ok = verdict === undefined ? values[s] <= c.threshold : Boolean(verdict[s]);
        if (!ok) meets[s] = 0;
      }
    }
    const status = batch.status;
    const mask = new Uint8Array(batch.numSystems);
    for (let s = 0; s < mask.length; s++) {
      if (status[s] === this.sourceStatus && meets[s]) {
        status[s] = target;
        mask[s] = 1;
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

  #values(batch: Batch, c: ConvergenceCriterion): Float64Array {
    const native = nativeBatchOf(batch);
    const op = c.reduceOp ?? 'max';
    switch (c.key) {
      case 'forces':
      case 'fmax':
        return native.reduce('forces', op);
      case 'velocities':
        return native.reduce('velocities', op);
      case 'energy':
        return Float64Array.from(batch.read('energy'));
      case 'energyChange': {
        const energy = batch.read('energy');
        const previous = this.#previousEnergy;
        this.#previousEnergy = Float64Array.from(energy);
        return Float64Array.from(energy, (e, s) => (previous === undefined || previous.length !== energy.length ? Infinity : Math.abs(e - previous[s])));
      }
      case 'kineticEnergy':
        return native.kineticEnergy();
      case 'temperature': {
        const ke = native.kineticEnergy();
        const n = batch.read('numAtoms');
        return Float64Array.from(ke, (k, s) => (n[s] > 0 ? (2 * k) / (3 * n[s] * batch.units.kB) : 0));
      }
      default:
        throw new HookmdError('INVALID_CRITERION', `ConvergenceHook: unknown key ${JSON.stringify(c.key)} (customOp keys must be built-in keys)`, {
          field: 'key',
          value: c.key,
        });
    }
  }
}
