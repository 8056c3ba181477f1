// FixSymmetry: each system's space group kept through a run (ASE's FixSymmetry). moyo finds the group of each
// system when an engine first binds the batch (lib/data/symmetry.ts); the averaging runs natively
// (native/cpp/dynamics/hooks/FixSymmetry.h).
import { analyzeSymmetry, type Batch } from '../../data/index.js';
import { HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { DynamicsStage } from '../stage.js';
import type { NativeHookSpec } from '../hooks/native-hook.js';

const STEP_STAGES: readonly DynamicsStage[] = [DynamicsStage.BEFORE_PRE_UPDATE, DynamicsStage.AFTER_PRE_UPDATE, DynamicsStage.BEFORE_POST_UPDATE, DynamicsStage.AFTER_POST_UPDATE];

/** Options of `new FixSymmetry`. */
export interface FixSymmetryOptions {
  /** Distance tolerance of the symmetry search (Å in metal units); default 0.01, ASE's. */
  symprec?: number;
  /** Also average every update's step of the positions over the group (ASE's `adjust_positions`); default true. */
  adjustPositions?: boolean;
}

/**
 * Keeps each system's space group, ASE's `FixSymmetry`: the group is found within `symprec` (moyo, as
 * `symmetry()` finds it) at the start of the run, and then the forces and the stress are averaged over it
 * after every compute, and each update's step of the positions too. Any optimizer with or without
 * `CellFilter` then relaxes inside the group: a relaxation keeps its space group even where a lower one has
 * lower energy. Unlike ASE's constructor, it does not first move the atoms onto the ideal symmetric sites
 * (ASE's `refine_symmetry`): a deviation within `symprec` stays as it is. Every system must be periodic in
 * three directions.
 *
 * @example
 * new FIRE({ model, cellFilter: new CellFilter(), constraints: [new FixSymmetry({ symprec: 0.01 })] });
 */
export class FixSymmetry {
  readonly frequency = 1;
  readonly name = 'FixSymmetry';
  readonly symprec: number;
  readonly adjustPositions: boolean;

  constructor(options: FixSymmetryOptions = {}) {
    checkKeys('FixSymmetry', options, ['symprec', 'adjustPositions'], '', { adjust_positions: 'adjustPositions', adjust_cell: 'the cell follows the averaged stress; there is no separate adjustCell' });
    const symprec = options.symprec ?? 0.01;
    if (typeof symprec !== 'number' || !Number.isFinite(symprec) || symprec <= 0) {
      throw new HookmdRangeError('INVALID_PARAMETER', `FixSymmetry: symprec must be a finite number > 0, got ${String(symprec)}`, { field: 'symprec', value: symprec });
    }
    const adjust = options.adjustPositions ?? true;
    if (typeof adjust !== 'boolean') {
      throw new HookmdTypeError('INVALID_PARAMETER', `FixSymmetry: adjustPositions must be a boolean, got ${JSON.stringify(adjust)}`, { field: 'adjustPositions', value: adjust });
    }
    this.symprec = symprec;
    this.adjustPositions = adjust;
  }

  /** @internal The native form, for engines: each system's operations on its current cell. */
  toNativeHook(batch: Batch): NativeHookSpec {
    const values: number[] = [];
    batch.toSystems().forEach((system, s) => {
      const { operations } = analyzeSymmetry(system, this.symprec, `FixSymmetry: systems[${s}]`);
      values.push(operations.length);
      for (const op of operations) values.push(...op.rotation, ...op.translation);
    });
    const stages = this.adjustPositions ? [DynamicsStage.AFTER_COMPUTE, ...STEP_STAGES] : [DynamicsStage.AFTER_COMPUTE];
    return { type: 'FixSymmetry', stages, frequency: 1, phase: 0, values: Float64Array.from(values) };
  }
}
