// A set of reference configurations bound to the native loss: validated once, packed into a Batch for the
// geometry, with the reference energies, forces and stress (and which of them each system has) beside it.
// The native side builds every neighbor list here, once: positions never move during a fit.
import { createHash } from 'node:crypto';

import { Batch, determinant3, nativeBatchOf, normalizeSystem, unitSystem } from '../data/index.js';
import type { System } from '../data/index.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import type { NativePredictions } from '../native/training-binding.js';
import type { ResolvedLossWeights } from './loss-weights.js';
import type { NativeLossHandle, TrainableSpace } from './trainable-space.js';

/**
 * A fingerprint of a data set, part of the trainer's canonical config.
 *
 * @example
 * trainer.config.data.train; // { systems: 40, atoms: 1520, sha256: '9f2c…' }
 */
export interface DataSummary {
  readonly systems: number;
  readonly atoms: number;
  /** SHA-256 of the geometry, species and references, so equal data gives equal config hashes. */
  readonly sha256: string;
}

/** @internal What one loss evaluation reports (LossTypes.h). */
export interface LossStats {
  readonly total: number;
  readonly energy: number;
  readonly forces: number;
  readonly stress: number;
  readonly energyAbs: number;
  readonly energySq: number;
  readonly energyCount: number;
  readonly forceAbs: number;
  readonly forceSq: number;
  readonly forceCount: number;
  readonly stressAbs: number;
  readonly stressSq: number;
  readonly stressCount: number;
}

const STAT_FIELDS = [
  'total', 'energy', 'forces', 'stress', 'energyAbs', 'energySq', 'energyCount',
  'forceAbs', 'forceSq', 'forceCount', 'stressAbs', 'stressSq', 'stressCount',
] as const;

// ASE's Voigt order: xx yy zz yz xz xy.
function voigtToMatrix(v: ArrayLike<number>): number[] {
  return [v[0], v[5], v[4], v[5], v[1], v[3], v[4], v[3], v[2]];
}

/** @internal A validated, natively bound training or validation set. */
export class TrainingSet {
  readonly size: number;
  readonly numAtoms: number;
  /** Atoms of each system. */
  readonly atomCounts: Int32Array;
  readonly summary: DataSummary;
  readonly #native: NativeLossHandle;
  readonly #weights: Float64Array;
  #forwards = 0;

  constructor(systems: unknown, space: TrainableSpace, weights: ResolvedLossWeights, units: 'metal' | 'lj', field: string, train = false) {
    const owner = `Trainer(${field})`;
    if (!Array.isArray(systems) || systems.length === 0) {
      throw new HookmdTypeError('INVALID_DATA', `Trainer: ${field} must be a non-empty array of systems`, { field, value: systems });
    }
    const unitsSystem = unitSystem(units);
    const prepared = (systems as System[]).map((system, index) => {
      const copy = system !== null && typeof system === 'object' && isFlat(system.stress, 6) ? { ...system, stress: voigtToMatrix(system.stress as ArrayLike<number>) } : system;
      const normalized = normalizeSystem(copy, index, unitsSystem, owner);
      const hasEnergy = copy.energy !== undefined;
      if (!hasEnergy && normalized.forces === undefined && normalized.stress === undefined) {
        throw new HookmdError('NO_REFERENCE', `${owner}: systems[${index}] has no reference energy, forces or stress to fit`, { field, index });
      }
      // The potentials report zero stress without a cell volume, so such a reference could never be matched.
      if (normalized.stress !== undefined && !hasVolume(normalized.cell)) {
        throw new HookmdError('INVALID_REFERENCE', `${owner}: systems[${index}] has a reference stress but no cell volume (stress needs a cell)`, {
          field: `${field}[${index}].stress`,
          index,
        });
      }
      // A network has no other hold on its forces than their labels (a pair model's few parameters do).
      if (space.variables === 'identity' && weights.forces > 0 && normalized.forces === undefined) {
        throw new HookmdError('NO_REFERENCE', `${owner}: systems[${index}] has no reference forces, and the force weight is ${weights.forces}; label its forces or set lossWeights.forces to 0`, {
          field: `${field}[${index}].forces`,
          index,
        });
      }
      return { copy, normalized };
    });
    const batch = Batch.fromSystems(prepared.map((p) => p.copy), { units });
    const ptr = batch.ptr;
    this.size = prepared.length;
    this.numAtoms = batch.numAtoms;
    this.atomCounts = batch.numAtomsPerSystem;
    const refEnergy = new Float64Array(this.size);
    const refForces = new Float64Array(3 * this.numAtoms);
    const refStress = new Float64Array(9 * this.size);
    const present = new Uint8Array(3 * this.size);
    prepared.forEach(({ normalized }, s) => {
      if (normalized.energy !== undefined) {
        refEnergy[s] = normalized.energy;
        present[3 * s] = 1;
      }
      if (normalized.forces !== undefined) {
        refForces.set(normalized.forces, 3 * ptr[s]);
        present[3 * s + 1] = 1;
      }
      if (normalized.stress !== undefined) {
        refStress.set(normalized.stress, 9 * s);
        present[3 * s + 2] = 1;
      }
    });
    const references = { energy: refEnergy, forces: refForces, stress: refStress, present, atomicNumbers: batch.read('atomicNumbers'), ptr };
    this.#native = space.bindLoss(nativeBatchOf(batch), references, field, train);
    this.#weights = Float64Array.of(weights.energy, weights.forces, weights.stress, weights.perAtomEnergy ? 1 : 0);
    this.summary = Object.freeze({
      systems: this.size,
      atoms: this.numAtoms,
      sha256: fingerprint([batch.read('atomicNumbers'), batch.read('positions'), batch.read('cell'), batch.read('pbc'), ptr, refEnergy, refForces, refStress, present]),
    });
  }

  /** Forward passes so far (predictions are valid until the next one). */
  get forwardCount(): number {
    return this.#forwards;
  }

  /** Predicts `systems` (indices into this set) at physical parameters θ. */
  forward(theta: Float64Array, systems: Int32Array): void {
    this.#native.forward(theta, systems);
    this.#forwards += 1;
  }

  /** The loss of the last forward, and ∂L/∂θ into `gradient` when given. */
  loss(gradient: Float64Array | null): LossStats {
    const values = this.#native.loss(this.#weights, gradient);
    const out: Record<string, number> = {};
    STAT_FIELDS.forEach((name, k) => {
      out[name] = values[k];
    });
    return out as unknown as LossStats;
  }

  /** Copies of each layer's node values of forward pass number `made` (null for a model without layers). */
  activations(made: number): Float64Array[] | null {
    this.#checkCurrent(made);
    return this.#native.activations();
  }

  /** Copies of the predictions of forward pass number `made` (STALE_PREDICTIONS once a later one ran). */
  predictions(made: number): NativePredictions {
    this.#checkCurrent(made);
    return this.#native.predictions();
  }

  #checkCurrent(made: number): void {
    if (made !== this.#forwards) {
      throw new HookmdError('STALE_PREDICTIONS', 'Trainer: these predictions were replaced by a later forward pass; read them during the stage that handed them out', {
        field: 'predictions',
      });
    }
  }
}

// The potentials' rule (PairPotential::finishSystem): a cell of negligible volume has no stress.
function hasVolume(cell: Float64Array): boolean {
  const scale = Math.max(...Array.from(cell, Math.abs));
  return scale > 0 && Math.abs(determinant3(cell)) > 1e-12 * scale ** 3;
}

function isFlat(value: unknown, length: number): boolean {
  return value !== null && typeof value === 'object' && (value as ArrayLike<unknown>).length === length && typeof (value as ArrayLike<unknown>)[0] === 'number';
}

function fingerprint(arrays: ReadonlyArray<ArrayBufferView>): string {
  const hash = createHash('sha256');
  for (const array of arrays) hash.update(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  return hash.digest('hex');
}
