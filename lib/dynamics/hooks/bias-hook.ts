// BiasHook: adds a bias potential's energy and forces to the model's at AFTER_COMPUTE, as nvalchemi's
// BiasedPotentialHook does (upstream PR #159): harmonic restraints, umbrella sampling, walls, steering.
import type { Batch } from '../../data/index.js';
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import type { DynamicsContext } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';
import type { BiasPotential, CollectiveVariable } from './collective-variables.js';

/**
 * A bias given as one function of the batch, nvalchemi's `bias_fn`: per-system energies (B) and per-atom
 * forces (N×3) to add.
 *
 * @example
 * const wall: BiasFunction = (batch) => ({ energy: new Float64Array(batch.numSystems), forces: new Float64Array(3 * batch.numAtoms) });
 */
export type BiasFunction = (batch: Batch, step: number) => { energy: ArrayLike<number>; forces: ArrayLike<number> };

/** Options of `new BiasHook`: a collective variable and a potential of it, or a bias function. */
export type BiasHookOptions = (
  | { readonly cv: CollectiveVariable; readonly potential: BiasPotential; readonly bias?: undefined }
  | { readonly bias: BiasFunction; readonly cv?: undefined; readonly potential?: undefined }
) & {
  /** Apply the bias every `frequency` steps (default 1: every step, which a bias needs to be a potential). */
  readonly frequency?: number;
  readonly name?: string;
};

/**
 * Adds a bias U to each running system's energy and −∇U to its forces after every force computation, the
 * first one before the run's first step included: U = potential(cv(x)), or what `bias(batch, step)`
 * returns. Finished systems (status ≥ the engine's exitStatus) are left alone: their forces are not
 * recomputed. Registered on a FusedStage sub-stage, it biases that sub-stage's systems. The stress is the
 * model's, without the bias; native built-ins at AFTER_COMPUTE (MaxForceClampHook) act before it.
 *
 * @example
 * // A dimer held near 1.5σ: E_bias = ½·20·(r − 1.5)².
 * const md = new Langevin({ model, dt: 0.005, temperature: 1, friction: 1, seed: 1,
 *   hooks: [new BiasHook({ cv: distance(0, 1), potential: harmonic({ k: 20, center: 1.5 }) })] });
 */
export class BiasHook {
  readonly stage: DynamicsStage = DynamicsStage.AFTER_COMPUTE;
  readonly frequency: number;
  readonly name: string;
  readonly cv: CollectiveVariable | undefined;
  readonly potential: BiasPotential | undefined;
  readonly #bias: BiasFunction | undefined;
  /** The last bias energies added (one per system), for logs and checks. */
  lastEnergy: Float64Array = new Float64Array(0);

  constructor(options: BiasHookOptions) {
    const owner = 'BiasHook';
    checkKeys(owner, options, ['cv', 'potential', 'bias', 'frequency', 'name']);
    const given = options as Partial<Record<'cv' | 'potential' | 'bias', unknown>>;
    if (given.bias !== undefined) {
      if (typeof given.bias !== 'function' || given.cv !== undefined || given.potential !== undefined) {
        throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: give either bias(batch, step) => { energy, forces }, or cv and potential`, { field: 'bias' });
      }
    } else if (typeof (given.cv as CollectiveVariable | undefined)?.evaluate !== 'function' || typeof (given.potential as BiasPotential | undefined)?.at !== 'function') {
      throw new HookmdTypeError('INVALID_PARAMETER', `${owner}: cv must be a collective variable (distance, coordinate, or { evaluate }) and potential a bias potential (harmonic, or { at })`, {
        field: given.cv === undefined ? 'cv' : 'potential',
      });
    }
    this.cv = options.cv;
    this.potential = options.potential;
    this.#bias = options.bias;
    this.frequency = checkFrequency(owner, options.frequency);
    this.name = options.name ?? (options.cv === undefined ? owner : `${owner}(${options.potential?.name} of ${options.cv.name})`);
  }

  /** Adds the bias to `ctx.batch`'s energies and forces, for the systems this hook biases. */
  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage> & { readonly subStage?: number | null }): void {
    const batch = ctx.batch;
    const biased = this.#biased(batch, ctx);
    const { energy, forces } = this.#evaluate(batch, ctx.stepCount);
    checkFinite(this.name, 'energy', energy, ctx.stepCount);
    checkFinite(this.name, 'forces', forces, ctx.stepCount);
    const [e, f, index] = [batch.energy, batch.forces, batch.read('systemIndex')];
    for (let s = 0; s < e.length; s++) if (biased[s] === 1) e[s] += energy[s];
    for (let i = 0; i < index.length; i++) {
      if (biased[index[i]] !== 1) continue;
      for (let c = 0; c < 3; c++) f[3 * i + c] += forces[3 * i + c];
    }
    this.lastEnergy = Float64Array.from(energy);
  }

  // The systems whose forces this step's compute made: those still running (a finished system keeps the
  // forces it had, so a bias added again would pile up); on a FusedStage sub-stage, that sub-stage's systems.
  #biased(batch: Batch, ctx: { readonly workflow: unknown; readonly subStage?: number | null }): Uint8Array {
    const status = batch.read('status');
    const subStage = ctx.subStage ?? null;
    if (subStage !== null) return Uint8Array.from(status, (s) => (s === subStage ? 1 : 0));
    const exitStatus = (ctx.workflow as { exitStatus?: number } | undefined)?.exitStatus ?? Infinity;
    return Uint8Array.from(status, (s) => (s < exitStatus ? 1 : 0));
  }

  #evaluate(batch: Batch, step: number): { energy: ArrayLike<number>; forces: ArrayLike<number> } {
    if (this.#bias !== undefined) {
      const out = this.#bias(batch, step);
      if (out?.energy?.length !== batch.numSystems || out?.forces?.length !== 3 * batch.numAtoms) {
        throw new HookmdError('INVALID_BIAS', `${this.name}: bias must return energy (${batch.numSystems} values, one per system) and forces (${3 * batch.numAtoms}, 3 per atom), got ${out?.energy?.length} and ${out?.forces?.length}`, {
          field: 'bias',
        });
      }
      return out;
    }
    const cv = this.cv as CollectiveVariable;
    const potential = this.potential as BiasPotential;
    const { values, gradient } = cv.evaluate(batch);
    if (values?.length !== batch.numSystems || gradient?.length !== 3 * batch.numAtoms) {
      throw new HookmdError('INVALID_BIAS', `${this.name}: cv.evaluate must return values (${batch.numSystems}, one per system) and gradient (${3 * batch.numAtoms}, 3 per atom), got ${values?.length} and ${gradient?.length}`, {
        field: 'cv',
      });
    }
    const slopes = new Float64Array(values.length);
    const energy = Float64Array.from(values, (s, system) => {
      const { energy: u, slope } = potential.at(s, system);
      slopes[system] = slope;
      return u;
    });
    const index = batch.read('systemIndex');
    const forces = Float64Array.from(gradient, (g, k) => -slopes[index[Math.floor(k / 3)]] * g);
    return { energy, forces };
  }
}

// A bias that is not a number would reach the integrator as NaN forces: name it where it came from.
function checkFinite(owner: string, field: 'energy' | 'forces', values: ArrayLike<number>, step: number): void {
  for (let k = 0; k < values.length; k++) {
    if (!Number.isFinite(values[k])) {
      throw new HookmdError('INVALID_BIAS', `${owner}: bias ${field}[${k}] is ${values[k]} at step ${step}; a bias must be finite`, { field: `bias.${field}`, value: values[k], step });
    }
  }
}
