// Engines from stage configs: one engine per stage, fused when there are several or a stage has a step
// budget (budgets are a FusedStage feature). Defaults that depend on units live here, in one place.
import {
  CellFilter,
  ConvergenceHook,
  FIRE,
  FIRE2,
  FusedStage,
  GradientDescent,
  LBFGS,
  Langevin,
  NPT,
  NPTLangevin,
  NoseHooverChain,
  VelocityVerlet,
  type Constraint,
  type Dynamics,
  type InitialVelocityOptions,
} from '../dynamics/index.js';
import { HookmdTypeError, isHookmdError } from '../errors.js';
import type { Model } from '../models/index.js';
import { configError, parsePath } from './config-file.js';
import { formatPath, type PathSegment } from './json-schema.js';
import { parseQuantity } from './quantity.js';
import type { CellConfig, StageConfig, UnitsName } from './run-config.js';
import { MINIMIZER_TYPES } from './stage-types.js';
import { showText } from '../describe-value.js';

// The dynamics minimizers (FIRE and the like), which leave their systems at rest.
const MINIMIZERS: ReadonlySet<string> = new Set(MINIMIZER_TYPES);
const NOSE_HOOVER: ReadonlySet<string> = new Set(['nhc', 'npt']);

/** MD time step when none is given: 1 fs (metal), 0.005 τ (lj), LAMMPS's usual choices. */
export function defaultTimeStep(units: UnitsName): number {
  return units === 'lj' ? 0.005 : 1;
}

/** Langevin friction when none is given: 0.01 /fs (metal: a 100 fs damping time, ASE's documented 0.01 / units.fs), 1 /τ (lj). */
export function defaultFriction(units: UnitsName): number {
  return units === 'lj' ? 1 : 0.01;
}

/**
 * NPTLangevin's compressibility when none is given, in Å³/eV: water's 4.5e-5/bar, GROMACS's usual C-rescale
 * value. It sets how fast the volume follows the pressure, not the ensemble; lj units have no such value.
 */
function defaultCompressibility(units: UnitsName): number | undefined {
  return units === 'lj' ? undefined : parseQuantity('4.5e-5/bar', 'compressibility', units, 'compressibility');
}

/** A cell section with its pressure and stress threshold in the engines' units (eV/Å³ in metal units). */
interface CheckedCell {
  readonly pressure: number;
  readonly stress: number | undefined;
  readonly hydrostaticStrain: boolean;
}

function checkedCell(cell: CellConfig, units: UnitsName): CheckedCell {
  return {
    pressure: cell.pressure === undefined ? 0 : parseQuantity(cell.pressure, 'pressure', units, 'cell.pressure'),
    stress: cell.stress === undefined ? undefined : parseQuantity(cell.stress, 'pressure', units, 'cell.stress'),
    hydrostaticStrain: cell.hydrostaticStrain ?? false,
  };
}

/**
 * An optimizer stage's convergence: fmax, and with `cell` also the stress within `cell.stress` of −P·I (by
 * default fmax/100 per length unit: 5e-4 eV/Å³, about 0.08 GPa, for fmax 0.05 eV/Å).
 */
function convergenceOf(fmax: number | undefined, cell: CheckedCell | undefined): ConvergenceHook | undefined {
  if (fmax === undefined) return undefined;
  if (cell === undefined) return ConvergenceHook.fromFmax(fmax);
  return ConvergenceHook.fromFmaxAndStress(fmax, cell.stress ?? fmax / 100, { pressure: cell.pressure });
}

function frictionOf(friction: unknown, units: UnitsName): number {
  return friction === undefined ? defaultFriction(units) : parseQuantity(friction, 'friction', units, 'friction');
}

/**
 * The engine of one stage (without its step budget, which belongs to the fused pipeline). Pressures and
 * frictions carry their unit (quantity.ts); a wrong one is INVALID_UNIT naming the field.
 */
export function buildStageEngine(stage: StageConfig, model: Model, units: UnitsName, constraints: readonly Constraint[] = []): Dynamics {
  const { type, steps: _budget, fmax, cell: cellOption, velocities: velocityOption, pressure, friction, compressibility, ...parameters } = stage;
  const p = parameters as Record<string, number>;
  const velocities = velocityOption as InitialVelocityOptions | undefined;
  const cell = cellOption === undefined ? undefined : checkedCell(cellOption as CellConfig, units);
  const convergence = convergenceOf(fmax, cell);
  const cellFilter = cell === undefined ? undefined : new CellFilter({ scalarPressure: cell.pressure, hydrostaticStrain: cell.hydrostaticStrain });
  const dt = p.dt ?? defaultTimeStep(units);
  switch (type) {
    case 'fire': return new FIRE({ model, convergence, cellFilter, constraints, ...p });
    case 'fire2': return new FIRE2({ model, convergence, cellFilter, constraints, ...p });
    case 'gd': return new GradientDescent({ model, convergence, cellFilter, constraints, ...p });
    case 'lbfgs': return new LBFGS({ model, convergence, cellFilter, constraints, ...p });
    case 'nve': return new VelocityVerlet({ model, dt, velocities, constraints });
    case 'langevin': return new Langevin({ model, dt, temperature: p.temperature, friction: frictionOf(friction, units), seed: p.seed, velocities, constraints });
    case 'nhc': return new NoseHooverChain({ model, dt, temperature: p.temperature, tdamp: p.tdamp, chainLength: p.chainLength, velocities, constraints });
    case 'npt': {
      const couple = (parameters as { couple?: 'iso' | 'aniso' }).couple;
      return new NPT({ model, dt, temperature: p.temperature, pressure: parseQuantity(pressure, 'pressure', units, 'pressure'), tdamp: p.tdamp, pdamp: p.pdamp, couple, chainLength: p.chainLength, velocities, constraints });
    }
    case 'npt-langevin': {
      const beta = compressibility === undefined ? defaultCompressibility(units) : parseQuantity(compressibility, 'compressibility', units, 'compressibility');
      if (beta === undefined) throw new HookmdTypeError('INVALID_PARAMETER', 'npt-langevin: compressibility is required in lj units (σ³/ε; it sets how fast the volume follows the pressure)', { field: 'compressibility' });
      return new NPTLangevin({
        model, dt, temperature: p.temperature, pressure: parseQuantity(pressure, 'pressure', units, 'pressure'), friction: frictionOf(friction, units),
        compressibility: beta, tauP: p.pdamp, seed: p.seed, velocities, constraints,
      });
    }
  }
}

/**
 * The pipeline engine for `stages`: the stage's own engine when there is one stage without a budget,
 * otherwise a FusedStage with the budgets. Constructor errors come back at `stages[i].<field>`.
 * `constraints` hold every system in every stage: the first stage's engine takes them, and a FusedStage
 * runs its sub-stages' native hooks on all its systems.
 */
export function buildPipeline(
  stages: readonly StageConfig[],
  model: Model,
  units: UnitsName,
  locate: (path: readonly PathSegment[]) => string,
  constraints: readonly Constraint[] = [],
): Dynamics {
  const engines = stages.map((stage, i) => {
    try {
      return buildStageEngine(stage, model, units, i === 0 ? constraints : []);
    } catch (error) {
      if (!isHookmdError(error)) throw error;
      const field = error.details.field;
      const path = ['stages', i, ...(typeof field === 'string' ? parsePath(field) : [])];
      throw configError([`${locate(path)}: ${formatPath(path)}: ${error.message}`], { cause: error.code });
    }
  });
  // A system can only leave a middle stage by converging or spending its budget.
  const stuck = stages.slice(0, -1).flatMap((stage, i) => (stage.fmax === undefined && stage.steps === undefined ? [i] : []));
  if (stuck.length > 0) {
    throw configError(stuck.map((i) => `${locate(['stages', i])}: stages[${i}]: needs fmax or steps, or systems never reach the next stage`));
  }
  // Systems leave an optimizer at rest, and a Nosé–Hoover chain only rescales the velocities it is given: from
  // rest it would blow up whatever the forces left into a violent transient instead of thermalizing.
  const cold = stages.flatMap((stage, i) => (NOSE_HOOVER.has(stage.type) && stage.velocities === undefined && stages.slice(0, i).some((earlier) => MINIMIZERS.has(earlier.type)) ? [i] : []));
  if (cold.length > 0) {
    throw configError(cold.map((i) => `${locate(['stages', i])}: stages[${i}]: systems arrive at rest from an optimizer, which a Nosé–Hoover thermostat cannot heat; add velocities: { temperature: ${showText(stages[i].temperature)} }`));
  }
  if (engines.length === 1 && stages[0].steps === undefined) return engines[0];
  return new FusedStage({ stages: engines, model, budgets: stages.map((stage) => stage.steps) });
}
