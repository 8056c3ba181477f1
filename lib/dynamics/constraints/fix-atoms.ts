// FixAtoms: atoms held in place as an engine constraint (ASE's FixAtoms), run natively by FreezeAtomsHook's
// kernel; the temperature then counts 3·N_mobile degrees of freedom.
import type { Batch, System } from '../../data/index.js';
import { fixedMask, FreezeAtomsHook } from '../hooks/freeze-atoms.js';
import type { NativeHookSpec } from '../hooks/native-hook.js';

/**
 * Fixed atoms, ASE's `FixAtoms`: `indices` lists them (in the batch's atom order), or `mask` flags them, one
 * entry per atom of the batch. Their positions stay and their velocities and forces are zero in every engine;
 * thermostats, logs and `ctx.scalars` count 3·(N − fixed) degrees of freedom, as ASE's get_temperature does.
 *
 * @example
 * new Langevin({ model, dt: 2, temperature: 300, friction: 0.01, constraints: [new FixAtoms({ indices: [0, 1, 2] })] });
 */
export class FixAtoms {
  readonly frequency = 1;
  readonly name = 'FixAtoms';
  readonly #freeze: FreezeAtomsHook;

  constructor(options: { indices?: readonly number[]; mask?: ArrayLike<number | boolean> }) {
    this.#freeze = new FreezeAtomsHook(options, 'FixAtoms');
  }

  /**
   * The atoms the systems fix: `info.fixed` (POSCAR's selective dynamics, via readStructures) and the ASE
   * `FixAtoms` of `info.aseConstraints` (an ASE .traj, via readTraj), for a batch built from `systems` in order.
   *
   * @example
   * const frames = readTraj('slab.traj');
   * new FIRE({ model, constraints: [FixAtoms.fromSystems(frames.slice(-1))] });
   */
  static fromSystems(systems: readonly System[]): FixAtoms {
    return new FixAtoms({ mask: fixedMask(systems, 'FixAtoms.fromSystems') });
  }

  /** One flag per atom of `batch` (1 = fixed); INVALID_MASK when the constraint does not fit it. */
  maskFor(batch: Batch): Uint8Array {
    return this.#freeze.maskFor(batch);
  }

  /** @internal The native form, for engines. */
  toNativeHook(batch: Batch): NativeHookSpec {
    return this.#freeze.toNativeHook(batch);
  }
}
