// ReplicaExchangeHook: parallel tempering over the systems of one batch, system s held at temperatures[s] by
// the engine's thermostat (Langevin or NoseHooverChain given the same per-system `temperature`). Every
// `every` steps, neighbouring temperatures k, k+1 (the even pairs and the odd pairs in turn) exchange their
// replicas with the Metropolis probability min(1, exp((β_k − β_{k+1})(E_k − E_{k+1}))). The thermostat
// targets are fixed per system in an engine (docs/dynamics.md, "Per-system parameters"), so an accepted swap
// moves the two configurations between the systems rather than the targets between the configurations: the
// positions, the forces and energy computed for them, and the velocities rescaled by sqrt(T_new/T_old). That is
// the same Markov chain over (configuration, temperature) pairs, and a Nosé–Hoover chain's own variables stay
// with the temperature they thermostat, whose distribution does not depend on the configuration.
import { HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { createRng, type Batch, type Rng } from '../../data/index.js';
import type { DynamicsContext } from '../../hooks/index.js';
import { checkKeys } from '../../option-keys.js';
import { DynamicsStage } from '../stage.js';
import { showValue } from '../../describe-value.js';

/** Options of `new ReplicaExchangeHook(...)`. */
export interface ReplicaExchangeOptions {
  /** The temperature of each system of the batch, in order (K in metal units, ε/k_B in lj): the engine's per-system `temperature`. */
  temperatures: readonly number[];
  /** Steps between exchange attempts. */
  every: number;
  /** Seed of the Metropolis draws (an integer ≥ 0); default 0. */
  seed?: number;
}

/** What the exchanges did: per neighbour pair and per replica. */
export interface ReplicaExchangeReport {
  readonly temperatures: readonly number[];
  /** Attempts and acceptances: entry [k][k+1] (and [k+1][k]) counts those between temperatures k and k+1. */
  readonly attempts: number[][];
  readonly accepted: number[][];
  /** accepted / attempts, 0 where nothing was attempted. */
  readonly acceptance: number[][];
  /** For each replica (a configuration, by the system it started in), its temperature after each exchange round. */
  readonly trajectories: number[][];
  /** The steps taken at each exchange round (the state it exchanged, as a log row labels it). */
  readonly steps: number[];
  /** Which replica each system holds now. */
  readonly replicaOf: number[];
}

/**
 * The Metropolis probability of exchanging the replicas at inverse temperatures βi and βj (1/energy) with
 * potential energies Ei and Ej: min(1, exp((βi − βj)(Ei − Ej))).
 *
 * @example
 * exchangeProbability(1 / 1.0, 1 / 2.0, -10, -12); // exp(0.5·2) capped at 1 → 1
 */
export function exchangeProbability(betaI: number, betaJ: number, energyI: number, energyJ: number): number {
  const exponent = (betaI - betaJ) * (energyI - energyJ);
  return exponent >= 0 ? 1 : Math.exp(exponent);
}

/** Replicas exchange between systems of one composition and cell: the same atoms in the same order. */
function sameSystems(batch: Batch, ptr: ArrayLike<number>): void {
  const numbers = batch.read('atomicNumbers');
  const cell = batch.read('cell');
  const atoms = ptr[1]!;
  for (let s = 1; s < batch.numSystems; s++) {
    const same = ptr[s + 1]! - ptr[s]! === atoms && Array.from({ length: atoms }, (_, i) => numbers[ptr[s]! + i] === numbers[i]).every(Boolean) && Array.from({ length: 9 }, (_, c) => cell[9 * s + c] === cell[c]).every(Boolean);
    if (!same) throw new HookmdRangeError('INVALID_BATCH', `ReplicaExchangeHook: system ${s} has other atoms, another order or another cell than system 0, so their replicas cannot exchange`, { field: 'batch', index: s });
  }
}

const square = (n: number): number[][] => Array.from({ length: n }, () => new Array<number>(n).fill(0));

/**
 * Replica exchange (parallel tempering) at AFTER_STEP.
 *
 * @example
 * const exchange = new ReplicaExchangeHook({ temperatures: [30, 40, 50], every: 100, seed: 1 });
 * new Langevin({ model, dt: 5, temperature: exchange.temperatures, friction: 0.01, hooks: [exchange] });
 */
export class ReplicaExchangeHook {
  readonly stage: DynamicsStage = DynamicsStage.AFTER_STEP;
  readonly frequency: number;
  readonly name = 'ReplicaExchangeHook';
  readonly temperatures: readonly number[];
  readonly #rng: Rng;
  readonly #attempts: number[][];
  readonly #accepted: number[][];
  readonly #trajectories: number[][];
  readonly #steps: number[] = [];
  readonly #replicaOf: number[];
  #round = 0;

  constructor(options: ReplicaExchangeOptions) {
    if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', 'ReplicaExchangeHook: options must be an object with temperatures and every', { field: 'options', value: options });
    checkKeys('ReplicaExchangeHook', options, ['temperatures', 'every', 'seed'], '', { frequency: 'every' });
    const { temperatures, every, seed = 0 } = options;
    if (!Array.isArray(temperatures) || temperatures.length < 2) {
      throw new HookmdRangeError('INVALID_PARAMETER', 'ReplicaExchangeHook: temperatures must be an array of two temperatures or more, one per system', { field: 'temperatures', value: temperatures });
    }
    temperatures.forEach((t, k) => {
      if (typeof t !== 'number' || !Number.isFinite(t) || !(t > 0)) throw new HookmdRangeError('INVALID_PARAMETER', `ReplicaExchangeHook: temperatures[${k}] must be a number > 0, got ${showValue(t)}`, { field: 'temperatures', index: k, value: t });
    });
    if (!Number.isSafeInteger(every) || every < 1) throw new HookmdRangeError('INVALID_PARAMETER', `ReplicaExchangeHook: every must be an integer >= 1, got ${showValue(every)}`, { field: 'every', value: every });
    if (!Number.isSafeInteger(seed) || seed < 0) throw new HookmdRangeError('INVALID_PARAMETER', `ReplicaExchangeHook: seed must be an integer >= 0, got ${showValue(seed)}`, { field: 'seed', value: seed });
    this.temperatures = Object.freeze([...temperatures]);
    this.frequency = every;
    this.#rng = createRng(seed);
    this.#attempts = square(temperatures.length);
    this.#accepted = square(temperatures.length);
    this.#replicaOf = temperatures.map((_, s) => s);
    this.#trajectories = temperatures.map(() => []);
  }

  /** One exchange round: the even pairs (0–1, 2–3, …) on even rounds, the odd pairs (1–2, 3–4, …) on odd ones. */
  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    const { batch } = ctx;
    const n = this.temperatures.length;
    if (batch.numSystems !== n) {
      throw new HookmdRangeError('LENGTH_MISMATCH', `ReplicaExchangeHook: ${n} temperatures but the batch has ${batch.numSystems} systems`, { field: 'temperatures', value: n, expected: batch.numSystems });
    }
    const ptr = batch.read('ptr');
    if (this.#round === 0) sameSystems(batch, ptr);
    const energy = batch.energy;
    const { kB } = batch.units;
    for (let k = this.#round % 2; k + 1 < n; k += 2) {
      this.#attempts[k]![k + 1]! += 1;
      this.#attempts[k + 1]![k]! += 1;
      const [ti, tj] = [this.temperatures[k]!, this.temperatures[k + 1]!];
      const p = exchangeProbability(1 / (kB * ti), 1 / (kB * tj), energy[k]!, energy[k + 1]!);
      // One draw per attempt, accepted or not, so that the sequence of draws depends on the seed alone.
      if (!(this.#rng.uniform() < p)) continue;
      this.#accepted[k]![k + 1]! += 1;
      this.#accepted[k + 1]![k]! += 1;
      this.#swap(batch, ptr, k, Math.sqrt(tj / ti));
      [energy[k], energy[k + 1]] = [energy[k + 1]!, energy[k]!];
      [this.#replicaOf[k], this.#replicaOf[k + 1]] = [this.#replicaOf[k + 1]!, this.#replicaOf[k]!];
    }
    this.#round += 1;
    this.#steps.push(ctx.stepCount + 1);
    this.#replicaOf.forEach((replica, s) => this.#trajectories[replica]!.push(this.temperatures[s]!));
  }

  /** Exchanges systems k and k+1: positions, forces, and velocities scaled to the temperature each arrives at. */
  #swap(batch: Batch, ptr: ArrayLike<number>, k: number, ratio: number): void {
    const a = 3 * ptr[k]!;
    const b = 3 * ptr[k + 1]!;
    const size = b - a;
    for (const [field, up, down] of [['positions', 1, 1], ['forces', 1, 1], ['velocities', ratio, 1 / ratio]] as const) {
      const view = field === 'positions' ? batch.positions : field === 'forces' ? batch.forces : batch.velocities;
      for (let x = 0; x < size; x++) {
        // System k+1's replica comes down to T_k (× sqrt(T_k/T_{k+1})), system k's goes up (× sqrt(T_{k+1}/T_k)).
        const lower = view[a + x]!;
        view[a + x] = view[b + x]! / up;
        view[b + x] = lower / down;
      }
    }
  }

  /** The acceptance counts and each replica's temperature trajectory so far. */
  report(): ReplicaExchangeReport {
    const acceptance = this.#attempts.map((row, i) => row.map((count, j) => (count === 0 ? 0 : this.#accepted[i]![j]! / count)));
    return {
      temperatures: this.temperatures,
      attempts: this.#attempts.map((row) => [...row]),
      accepted: this.#accepted.map((row) => [...row]),
      acceptance,
      trajectories: this.#trajectories.map((t) => [...t]),
      steps: [...this.#steps],
      replicaOf: [...this.#replicaOf],
    };
  }
}
