// FixSymmetry: each system's space group kept through a run (ASE's FixSymmetry). moyo finds the group of each
// system when an engine first binds the batch (lib/data/symmetry.ts); the averaging runs natively
// (native/cpp/dynamics/hooks/FixSymmetry.h).
import { analyzeSymmetry, refineWith, type Batch } from '../../data/index.js';
import { HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { DynamicsStage } from '../stage.js';
import type { NativeHookSpec } from '../hooks/native-hook.js';
import { showText, showValue } from '../../describe-value.js';

const STEP_STAGES: readonly DynamicsStage[] = [DynamicsStage.BEFORE_PRE_UPDATE, DynamicsStage.AFTER_PRE_UPDATE, DynamicsStage.BEFORE_POST_UPDATE, DynamicsStage.AFTER_POST_UPDATE];

/** Options of `new FixSymmetry`. */
export interface FixSymmetryOptions {
  /** Distance tolerance of the symmetry search (Å in metal units); default 0.01, ASE's. */
  symprec?: number;
  /** Also average every update's step of the positions over the group (ASE's `adjust_positions`); default true. */
  adjustPositions?: boolean;
  /** First move each system onto its exact symmetric structure (`refineSymmetry`), as ASE's constructor does; default true. */
  refine?: boolean;
}

/**
 * Keeps each system's space group, ASE's `FixSymmetry`: the group is found within `symprec` (moyo, as
 * `symmetry()` finds it) at the start of the run, and then the forces and the stress are averaged over it
 * after every compute, and each update's step of the positions too. Any optimizer with or without
 * `CellFilter` then relaxes inside the group: a relaxation keeps its space group even where a lower one has
 * lower energy. As ASE's constructor does, it first moves each system onto the exact positions and cell of
 * its group (`refineSymmetry`), when the engine first binds the batch; `refine: false` leaves a deviation
 * within `symprec` as it is. Every system must be periodic in three directions.
 *
 * @example
 * new FIRE({ model, cellFilter: new CellFilter(), constraints: [new FixSymmetry({ symprec: 0.01 })] });
 */
export class FixSymmetry {
  readonly frequency = 1;
  readonly name = 'FixSymmetry';
  readonly symprec: number;
  readonly adjustPositions: boolean;
  readonly refine: boolean;

  constructor(options: FixSymmetryOptions = {}) {
    checkKeys('FixSymmetry', options, ['symprec', 'adjustPositions', 'refine'], '', { adjust_positions: 'adjustPositions', adjust_cell: 'the cell follows the averaged stress; there is no separate adjustCell' });
    const symprec = options.symprec ?? 0.01;
    if (typeof symprec !== 'number' || !Number.isFinite(symprec) || symprec <= 0) {
      throw new HookmdRangeError('INVALID_PARAMETER', `FixSymmetry: symprec must be a finite number > 0, got ${showText(symprec)}`, { field: 'symprec', value: symprec });
    }
    for (const key of ['adjustPositions', 'refine'] as const) {
      if (options[key] !== undefined && typeof options[key] !== 'boolean') {
        throw new HookmdTypeError('INVALID_PARAMETER', `FixSymmetry: ${key} must be a boolean, got ${showValue(options[key])}`, { field: key, value: options[key] });
      }
    }
    this.symprec = symprec;
    this.adjustPositions = options.adjustPositions ?? true;
    this.refine = options.refine ?? true;
  }

  /**
   * @internal The native form, for engines: each system's operations on its cell, after moving the
   * system onto its exact symmetric structure (refine), before the engine computes the start forces.
   */
  toNativeHook(batch: Batch): NativeHookSpec {
    const stages = this.adjustPositions ? [DynamicsStage.AFTER_COMPUTE, ...STEP_STAGES] : [DynamicsStage.AFTER_COMPUTE];
    return { type: 'FixSymmetry', stages, frequency: 1, phase: 0, values: this.operations(batch, 0) };
  }

  /**
   * @internal The operations of the systems of `batch` from index `from` on (those a stream's refill adds,
   * or all), each system refined first: the native hook's layout, the count of operations of a system and
   * then each one's rotation and translation.
   */
  operations(batch: Batch, from: number): Float64Array {
    const values: number[] = [];
    const ptr = batch.ptr;
    const systems = Array.from({ length: batch.numSystems - from }, (_, k) => from + k);
    batch.toSystems(systems).forEach((given, k) => {
      const s = systems[k] as number;
      const where = `FixSymmetry: systems[${s}]`;
      const system = this.refine ? refineWith(given, this.symprec, where) : given;
      if (this.refine) {
        batch.positions.set((system.positions as number[][]).flat(), 3 * ptr[s]);
        batch.cell.set((system.cell as number[][]).flat(), 9 * s);
      }
      const { operations } = analyzeSymmetry(system, this.symprec, where);
      values.push(operations.length);
      for (const op of operations) values.push(...op.rotation, ...op.translation);
    });
    return Float64Array.from(values);
  }
}
