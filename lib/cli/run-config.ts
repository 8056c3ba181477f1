// The shape of a `hookmd run` config once it has passed CONFIG_SCHEMA. `relax` builds the same object
// from its flags, so both commands run through one pipeline.
import type { HookConfigEntry } from '../hooks/index.js';
import type { ModelKind } from '../models/index.js';
import type { BackendRequest } from '../native/index.js';

/** `constraints` of a run config, and what the flags give. */
export interface ConstraintsConfig {
  /** Atom indices (from 0, in each system's order) fixed in every input system. */
  readonly fixAtoms?: readonly number[];
  /** Hold each system's centre of mass (of its mobile atoms beside fixed ones). */
  readonly fixCom?: boolean;
  /** Keep each system's space group: true, or FixSymmetry's symprec (Å; default 0.01). */
  readonly symmetry?: boolean | number;
}

/** Unit systems a config may name. */
export type UnitsName = 'metal' | 'lj';

/** `model`: the force field, `{ type: ModelKind, ...parameters }` ('lj', 'morse', 'eam', 'tersoff', 'sw', 'snap', 'mliap', 'onnx', 'ipi'). */
export interface ModelConfig {
  readonly type: ModelKind;
  readonly [parameter: string]: unknown;
}

/** One entry of `stages`: an engine, its parameters, and how a system leaves it. */
export interface StageConfig {
  readonly type: 'fire' | 'fire2' | 'gd' | 'lbfgs' | 'nve' | 'langevin' | 'nhc' | 'npt' | 'npt-langevin';
  /** Step budget in this stage. */
  readonly steps?: number;
  /** Force convergence threshold (optimizers). */
  readonly fmax?: number;
  /** MD stages: Maxwell–Boltzmann velocities drawn for each system as it enters the stage. */
  readonly velocities?: { readonly temperature: number; readonly seed?: number };
  readonly [parameter: string]: unknown;
}

/** `cell` of an optimizer stage: relax the cell too, toward pressure P. */
export interface CellConfig {
  /** Target pressure with its unit (`'1 GPa'`); a bare number only in lj units. */
  readonly pressure?: string | number;
  readonly hydrostaticStrain?: boolean;
  /** Stress convergence threshold with its unit (`'0.01 GPa'`); default fmax/100 per length unit. */
  readonly stress?: string | number;
}

/** One entry of `sinks`. */
export interface SinkConfig {
  readonly path: string;
  readonly capacity?: number;
}

/** `stream`: how the input fills the batch. */
export interface StreamConfig {
  readonly maxAtoms?: number;
  readonly refillEvery?: number;
  readonly maxSteps?: number;
  readonly restoreOrder?: boolean;
}

/** A whole run config (docs/config.schema.json). */
export interface RunConfig {
  readonly units?: UnitsName;
  readonly backend?: BackendRequest;
  readonly threads?: number;
  readonly plugins?: readonly string[];
  readonly model: ModelConfig;
  readonly input: string;
  readonly stages: readonly StageConfig[];
  readonly hooks?: readonly HookConfigEntry[];
  readonly sinks?: readonly SinkConfig[];
  readonly constraints?: ConstraintsConfig;
  readonly stream?: StreamConfig;
}

/** Stream defaults, as documented in the schema. */
export const STREAM_DEFAULTS: Required<StreamConfig> = { maxAtoms: 65_536, refillEvery: 10, maxSteps: 10_000, restoreOrder: true };
