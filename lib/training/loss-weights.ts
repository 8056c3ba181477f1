// The weights of the three loss terms (native/cpp/training/LossTypes.h has the formula).
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { showValue } from '../describe-value.js';

/**
 * Weights of the energy, force and stress terms of the loss
 * L = w_E·mean(ΔE²) + w_F·mean(ΔF²) + w_S·mean(Δσ²), Δ = prediction − reference.
 *
 * @example
 * const weights: LossWeights = { energy: 1, forces: 10, stress: 0, perAtomEnergy: true };
 */
export interface LossWeights {
  /** w_E (default 1). */
  energy?: number;
  /** w_F (default 1). */
  forces?: number;
  /** w_S (default 0). */
  stress?: number;
  /** Compare energies per atom, (E − E_ref)/n (default true), so large and small systems weigh alike. */
  perAtomEnergy?: boolean;
}

/**
 * LossWeights with every default filled in.
 *
 * @example
 * trainer.lossWeights; // { energy: 1, forces: 1, stress: 0, perAtomEnergy: true }
 */
export type ResolvedLossWeights = Readonly<Required<LossWeights>>;

/** @internal Validates `weights` and fills the defaults. */
export function resolveLossWeights(weights: unknown, owner: string): ResolvedLossWeights {
  if (weights === undefined) return Object.freeze({ energy: 1, forces: 1, stress: 0, perAtomEnergy: true });
  if (weights === null || typeof weights !== 'object' || Array.isArray(weights)) {
    throw new HookmdTypeError('INVALID_LOSS_WEIGHTS', `${owner}: lossWeights must be an object { energy, forces, stress, perAtomEnergy }`, {
      field: 'lossWeights',
      value: weights,
    });
  }
  const given = weights as Record<string, unknown>;
  checkKeys(owner, given, ['energy', 'forces', 'stress', 'perAtomEnergy'], 'lossWeights.');
  const weight = (name: string, fallback: number): number => {
    const value = given[name] ?? fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new HookmdRangeError('INVALID_LOSS_WEIGHTS', `${owner}: lossWeights.${name} must be a finite number ≥ 0, got ${showValue(value)}`, {
        field: `lossWeights.${name}`,
        value,
      });
    }
    return value;
  };
  const perAtomEnergy = given.perAtomEnergy ?? true;
  if (typeof perAtomEnergy !== 'boolean') {
    throw new HookmdTypeError('INVALID_LOSS_WEIGHTS', `${owner}: lossWeights.perAtomEnergy must be a boolean, got ${showValue(perAtomEnergy)}`, {
      field: 'lossWeights.perAtomEnergy',
      value: perAtomEnergy,
    });
  }
  const resolved = { energy: weight('energy', 1), forces: weight('forces', 1), stress: weight('stress', 0), perAtomEnergy };
  if (resolved.energy + resolved.forces + resolved.stress === 0) {
    throw new HookmdRangeError('INVALID_LOSS_WEIGHTS', `${owner}: lossWeights are all 0; at least one term must count`, { field: 'lossWeights', value: weights });
  }
  return Object.freeze(resolved);
}
