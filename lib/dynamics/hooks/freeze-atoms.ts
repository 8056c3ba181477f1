// FreezeAtomsHook: holds masked atoms in place whatever the integrator does.
import type { Batch, System } from '../../data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { registerHookType, type DynamicsContext } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import type { NativeHookSpec } from './native-hook.js';
import { showText, showValue } from '../../describe-value.js';

const FREEZE_STAGES: readonly DynamicsStage[] = [
  DynamicsStage.BEFORE_STEP,
  DynamicsStage.AFTER_PRE_UPDATE,
  DynamicsStage.AFTER_COMPUTE,
  DynamicsStage.AFTER_POST_UPDATE,
];

/**
 * Freezes atoms: positions are restored and velocities and forces zeroed around every phase of every step,
 * so any integrator (thermostats included) leaves them in place. `mask` has one entry per atom of the
 * batch (truthy = frozen); `indices` lists frozen atoms instead. Runs natively in engines.
 *
 * @example
 * new FIRE({ model, hooks: [new FreezeAtomsHook({ indices: [0, 1, 2] })] });
 */
export class FreezeAtomsHook {
  readonly stage: DynamicsStage | null = null;
  readonly frequency = 1;
  readonly name = 'FreezeAtomsHook';
  readonly #mask: ArrayLike<number | boolean> | undefined;
  readonly #indices: readonly number[] | undefined;
  readonly #owner: string;
  #anchor: Map<number, [number, number, number]> | undefined;

  /** `owner` leads the error messages (@internal: FixAtoms, the constraint built on this hook). */
  constructor(options: { mask?: ArrayLike<number | boolean>; indices?: readonly number[] }, owner = 'FreezeAtomsHook') {
    this.#owner = owner;
    checkKeys(owner, options, ['mask', 'indices']);
    if ((options?.mask === undefined) === (options?.indices === undefined)) {
      throw new HookmdTypeError('INVALID_MASK', `${owner}: give exactly one of mask or indices`, { field: 'mask' });
    }
    // Copies, checked and kept: the atoms to freeze are those given now, whatever the caller's arrays become.
    const indices = options.indices === undefined ? undefined : Array.from(options.indices);
    indices?.forEach((i, k) => {
      if (!Number.isInteger(i) || i < 0) {
        throw new HookmdRangeError('INVALID_MASK', `${owner}: indices[${k}] must be an atom index ≥ 0, got ${showText(i)}`, { field: 'indices', index: k, value: i });
      }
    });
    this.#mask = options.mask === undefined ? undefined : Array.from(options.mask);
    this.#indices = indices;
  }

  /**
   * Freezes the atoms each system marks in `info.fixed` (one boolean per atom; readStructures sets it for
   * POSCAR atoms whose selective-dynamics flags are all F) or names in an ASE `FixAtoms` of
   * `info.aseConstraints` (readTraj keeps an ASE trajectory's constraints there), for a batch built from
   * `systems` in that order.
   *
   * @example
   * const systems = readStructures('POSCAR');
   * new FIRE({ model, hooks: [FreezeAtomsHook.fromSystems(systems)] }).run(Batch.fromSystems(systems));
   */
  static fromSystems(systems: readonly System[]): FreezeAtomsHook {
    return new FreezeAtomsHook({ mask: fixedMask(systems, 'FreezeAtomsHook.fromSystems') });
  }

  runsOnStage(stage: DynamicsStage): boolean {
    return FREEZE_STAGES.includes(stage);
  }

  /** The per-atom mask for `batch`; throws INVALID_MASK when it does not fit. */
  maskFor(batch: Batch): Uint8Array {
    const mask = new Uint8Array(batch.numAtoms);
    if (this.#mask !== undefined) {
      if (this.#mask.length !== batch.numAtoms) {
        throw new HookmdTypeError('INVALID_MASK', `${this.#owner}: mask has ${this.#mask.length} entries but the batch has ${batch.numAtoms} atoms`, {
          field: 'mask',
          value: this.#mask.length,
        });
      }
      for (let i = 0; i < mask.length; i++) mask[i] = this.#mask[i] ? 1 : 0;
      return mask;
    }
    for (const i of this.#indices ?? []) {
      if (i >= batch.numAtoms) {
        throw new HookmdRangeError('INVALID_MASK', `${this.#owner}: atom index ${i} is outside the batch (${batch.numAtoms} atoms)`, { field: 'indices', value: i });
      }
      mask[i] = 1;
    }
    return mask;
  }

  /** @internal The native form of this hook, for engines. */
  toNativeHook(batch: Batch): NativeHookSpec {
    return { type: 'FreezeAtomsHook', stages: FREEZE_STAGES, frequency: 1, phase: 0, mask: this.maskFor(batch) };
  }

  /** The same freeze from JS, for custom workflows. */
  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>, stage: DynamicsStage): void {
    const { batch } = ctx;
    const mask = this.maskFor(batch);
    const x = batch.positions;
    const v = batch.velocities;
    const f = batch.forces;
    if (this.#anchor === undefined) {
      this.#anchor = new Map();
      mask.forEach((m, i) => m && this.#anchor?.set(i, [x[3 * i], x[3 * i + 1], x[3 * i + 2]]));
    }
    for (const [i, anchor] of this.#anchor) {
      for (let c = 0; c < 3; c++) {
        x[3 * i + c] = anchor[c];
        v[3 * i + c] = 0;
        if (stage === DynamicsStage.AFTER_COMPUTE) f[3 * i + c] = 0;
      }
    }
  }
}

/**
 * @internal One flag per atom of `systems` in order: the atoms `info.fixed` marks and those an ASE
 * `FixAtoms` in `info.aseConstraints` names (`indices`, or a `mask`); INVALID_MASK for malformed entries.
 * An atom a POSCAR fixes in only some directions (`info.selectiveDynamics`) is UNSUPPORTED_CONSTRAINT:
 * FixAtoms holds whole atoms, and moving that atom along its fixed directions would ignore the file.
 */
export function fixedMask(systems: readonly System[], owner: string): number[] {
  const mask: number[] = [];
  systems.forEach((system, s) => {
    const count = system.symbols?.length ?? system.atomicNumbers?.length ?? 0;
    const flags = new Array<number>(count).fill(0);
    const bad = (field: string, why: string): HookmdTypeError => new HookmdTypeError('INVALID_MASK', `${owner}: systems[${s}].info.${field} ${why}`, { field: `info.${field}`, index: s });
    const selective = system.info?.selectiveDynamics;
    const partial = Array.isArray(selective) ? selective.findIndex((f) => Array.isArray(f) && f.some(Boolean) && !f.every(Boolean)) : -1;
    if (partial >= 0) {
      throw new HookmdError(
        'UNSUPPORTED_CONSTRAINT',
        `${owner}: systems[${s}] fixes atom ${partial} in only some directions (selective dynamics ${showValue((selective as unknown[])[partial])}, true = free); FixAtoms holds whole atoms, and a constraint per direction (ASE's FixScaled, FixCartesian) is not in hookmd: make its flags all T or all F`,
        { field: 'info.selectiveDynamics', index: s, atom: partial },
      );
    }
    const fixed = system.info?.fixed;
    if (fixed !== undefined) {
      if (!Array.isArray(fixed) || fixed.length !== count) throw bad('fixed', `must hold one boolean per atom (${count})`);
      fixed.forEach((f, i) => { if (f) flags[i] = 1; });
    }
    const constraints = system.info?.aseConstraints;
    for (const entry of Array.isArray(constraints) ? constraints : []) {
      if (entry === null || typeof entry !== 'object' || (entry as { name?: unknown }).name !== 'FixAtoms') continue;
      const kwargs = (entry as { kwargs?: { indices?: unknown; mask?: unknown } }).kwargs ?? {};
      if (Array.isArray(kwargs.indices)) {
        for (const i of kwargs.indices) {
          if (!Number.isInteger(i) || i < 0 || i >= count) throw bad('aseConstraints', `has a FixAtoms index ${showValue(i)} outside the system's ${count} atoms`);
          flags[i] = 1;
        }
      } else if (Array.isArray(kwargs.mask) && kwargs.mask.length === count) {
        kwargs.mask.forEach((f, i) => { if (f) flags[i] = 1; });
      } else {
        throw bad('aseConstraints', 'has a FixAtoms without indices or a mask of one entry per atom');
      }
    }
    mask.push(...flags);
  });
  return mask;
}

registerHookType('FreezeAtomsHook', (args) => new FreezeAtomsHook(args as { indices?: readonly number[] }));
