// Unit systems travel with a Batch; every engine, hook and log reads them from there.
import { HookmdError } from '../errors.js';
import { showValue } from '../describe-value.js';

/** A named unit system with the constants the engine needs. */
export interface UnitSystem {
  readonly name: 'metal' | 'lj';
  /** Boltzmann constant in energy/temperature (eV/K in metal, 1 in lj). */
  readonly kB: number;
  /** Multiplies force/mass to give acceleration in length/time² (9.648533212e-3 in metal, 1 in lj). */
  readonly forceToAccel: number;
  /** Mass of atoms without a `masses` entry in lj units (metal takes the element table). */
  readonly defaultMass: number | undefined;
  /** Default Verlet skin (LAMMPS's): 2.0 Å in metal, 0.3 σ in lj. */
  readonly defaultSkin: number;
  readonly length: string;
  readonly energy: string;
  readonly time: string;
  readonly mass: string;
  readonly temperature: string;
}

/** Å, eV, fs, amu, K — LAMMPS's `units metal` with fs time, as ASE uses. */
export const METAL: UnitSystem = Object.freeze({
  name: 'metal',
  kB: 8.617333262e-5,
  forceToAccel: 9.648533212e-3,
  defaultMass: undefined,
  defaultSkin: 2.0,
  length: 'Å',
  energy: 'eV',
  time: 'fs',
  mass: 'amu',
  temperature: 'K',
});

/** Reduced Lennard-Jones units: σ, ε, τ, m = 1, k_B = 1. */
export const LJ: UnitSystem = Object.freeze({
  name: 'lj',
  kB: 1,
  forceToAccel: 1,
  defaultMass: 1,
  defaultSkin: 0.3,
  length: 'σ',
  energy: 'ε',
  time: 'τ',
  mass: 'm',
  temperature: 'ε/k_B',
});

/** The unit system called `name`; throws INVALID_UNITS otherwise. */
export function unitSystem(name: unknown = 'metal'): UnitSystem {
  if (name === 'metal') return METAL;
  if (name === 'lj') return LJ;
  throw new HookmdError('INVALID_UNITS', `units: expected 'metal' or 'lj', got ${showValue(name)}`, {
    field: 'units',
    value: name,
  });
}
