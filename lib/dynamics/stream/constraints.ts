// The constraints a stream's systems bring with them, kept with their rows as systems leave and enter the
// batch: the atoms each system fixes (`info.fixed`, which readStructures sets from a POSCAR's selective
// dynamics, or an ASE FixAtoms in `info.aseConstraints`), held by a FreezeAtomsHook of the stream's own, and
// the space group of each system under the engine's FixSymmetry. At each refill the native hooks take the
// refilled batch's data (Stepper::remap's arrivals): kept systems keep their state, added ones bring theirs.
import type { Batch, System } from '../../data/index.js';
import type { FixSymmetry } from '../constraints/fix-symmetry.js';
import { fixedMask, FreezeAtomsHook } from '../hooks/freeze-atoms.js';
import { stageMask } from '../hooks/native-hook.js';
import type { NativeHookArrivals } from '../../native/index.js';
import type { NativeStepperHandle } from '../native-stepper.js';

export class StreamConstraints {
  readonly #owner: string;
  // One flag per atom of the batch: 1 where its system fixes the atom.
  #fixed = new Uint8Array(0);
  // The flags of the systems pulled last, which the next admission brings into the batch.
  #arriving: number[] = [];
  // The index of the stream's FreezeAtomsHook among the stepper's hooks, from the first system that fixes atoms.
  #freeze: number | undefined;

  constructor(owner: string) {
    this.#owner = owner;
  }

  /** Takes the systems just pulled: their fixed atoms, checked now (INVALID_MASK, UNSUPPORTED_CONSTRAINT). */
  arrive(systems: readonly System[]): void {
    this.#arriving = fixedMask(systems, this.#owner);
  }

  /** One flag per atom of the batch (1 = fixed), for the degrees of freedom that `ctx.scalars` counts. */
  get fixed(): Uint8Array {
    return this.#fixed;
  }

  /** The stream's first batch, built from the systems arrived last, on its new stepper. */
  bind(stepper: NativeStepperHandle, batch: Batch): void {
    this.#fixed = Uint8Array.from(this.#arriving);
    this.#arriving = [];
    this.#freeze = undefined;
    this.#addFreeze(stepper, batch);
  }

  /**
   * After `batch.refill(keep, arrived)`: the kept systems' flags move with their rows (`ptr`, the batch's
   * offsets before the refill), the arrived systems' follow, and the stepper remaps with them; each of the
   * engine's FixSymmetry constraints (`symmetry`, by hook index) brings the added systems' operations.
   */
  remap(stepper: NativeStepperHandle, batch: Batch, keep: readonly number[], added: number, ptr: Int32Array, symmetry: ReadonlyMap<number, FixSymmetry>): void {
    const fixed = new Uint8Array(batch.numAtoms);
    let at = 0;
    for (const s of keep) {
      fixed.set(this.#fixed.subarray(ptr[s], ptr[s + 1]), at);
      at += ptr[s + 1] - ptr[s];
    }
    fixed.set(this.#arriving, at);
    this.#fixed = fixed;
    this.#arriving = [];
    const arrivals = new Map<number, NativeHookArrivals>();
    for (const [index, constraint] of symmetry) arrivals.set(index, { values: constraint.operations(batch, keep.length) });
    if (this.#freeze !== undefined) arrivals.set(this.#freeze, { mask: fixed });
    stepper.remap(Int32Array.from(keep), added, arrivals);
    if (this.#freeze === undefined) this.#addFreeze(stepper, batch);
  }

  // The stream's FreezeAtomsHook, once some system fixes atoms: a stream of free systems runs without one.
  #addFreeze(stepper: NativeStepperHandle, batch: Batch): void {
    if (!this.#fixed.includes(1)) return;
    const spec = new FreezeAtomsHook({ mask: this.#fixed }, this.#owner).toNativeHook(batch);
    this.#freeze = stepper.addHook({ ...spec, stageMask: stageMask(spec.stages) });
  }
}
