// RdfHook: the radial distribution function g(r) of each system, averaged over the steps it fires at, as
// ASE's get_rdf (ase.ga.utilities) computes it for one frame: minimum-image distances, bins ((k − 1)·dr,
// k·dr], and the solid-state normalisation by the cell volume.
import { completedCell, invert3, type Batch } from '../../data/index.js';
import { HookmdRangeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import type { DynamicsContext, Trigger } from '../../hooks/index.js';
import { DynamicsStage } from '../stage.js';
import { stepsTaken } from '../state-observers.js';
import { checkFrequency } from './builtin-options.js';
import { multiplesOf } from './logging-hook.js';
import { showText } from '../../describe-value.js';

/** Options of `RdfHook`. */
export interface RdfOptions {
  /** Largest distance binned (Å, or σ); each periodic cell must be thicker than 2·rmax. */
  rmax: number;
  /** Number of bins of width rmax/nbins (default 100). */
  nbins?: number;
  /** Fire every `frequency` steps (default 100). */
  frequency?: number;
  name?: string;
}

/** One system's g(r): the bin centres `r` and the values `g`, averaged over `frames` frames. */
export interface Rdf {
  readonly r: Float64Array;
  readonly g: Float64Array;
  readonly frames: number;
}

/**
 * g(r) of system `s` of `batch` now, as ASE's `get_rdf(atoms, rmax, nbins)`: `counts[k]` pairs at distances
 * in ((k − 1)·dr, k·dr], divided by 2π·dr·(N/V)·N·(r² + dr²/12) at r = (k − ½)·dr. A periodic cell no thicker
 * than 2·rmax is INVALID_PARAMETER (ASE asserts the same).
 *
 * @example
 * const { r, g } = radialDistribution(batch, 0, 6, 60);
 */
export function radialDistribution(batch: Batch, s: number, rmax: number, nbins: number): { r: Float64Array; g: Float64Array } {
  const cells = batch.read('cell');
  const pbc = batch.read('pbc');
  const h = completedCell(cells, pbc, s);
  const inverse = invert3(h) as number[];
  const volume = Math.abs(h[0] * (h[4] * h[8] - h[5] * h[7]) - h[1] * (h[3] * h[8] - h[5] * h[6]) + h[2] * (h[3] * h[7] - h[4] * h[6]));
  for (let k = 0; k < 3; k++) {
    if (!pbc[3 * s + k]) continue;
    // The cell's thickness along lattice vector k: V / |a_(k+1) × a_(k+2)|.
    const [u, w] = [(k + 1) % 3, (k + 2) % 3].map((j) => [h[3 * j], h[3 * j + 1], h[3 * j + 2]]);
    const cross = Math.hypot(u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]);
    if (!(volume / cross > 2 * rmax)) {
      throw new HookmdRangeError('INVALID_PARAMETER', `RdfHook: system ${s}'s cell is ${(volume / cross).toFixed(3)} thick along lattice vector ${k}, not more than 2·rmax = ${2 * rmax}; give a smaller rmax or a larger cell`, { field: 'rmax', value: rmax, system: s });
    }
  }
  const ptr = batch.read('ptr');
  const x = batch.read('positions');
  const [begin, end] = [ptr[s], ptr[s + 1]];
  const n = end - begin;
  const dr = rmax / nbins;
  const counts = new Float64Array(nbins + 1);
  const images = pbc.subarray(3 * s, 3 * s + 3);
  for (let i = begin; i < end; i++) {
    for (let j = i + 1; j < end; j++) {
      const d = [0, 1, 2].map((c) => x[3 * j + c] - x[3 * i + c]);
      const f = [0, 1, 2].map((k) => d[0] * inverse[k] + d[1] * inverse[3 + k] + d[2] * inverse[6 + k]);
      for (let k = 0; k < 3; k++) if (images[k]) f[k] -= Math.round(f[k]);
      // The rounded image is the nearest for a cubic cell; a skewed one can have a nearer neighbour image.
      let r = Infinity;
      for (let a = images[0] ? -1 : 0; a <= (images[0] ? 1 : 0); a++) {
        for (let b = images[1] ? -1 : 0; b <= (images[1] ? 1 : 0); b++) {
          for (let c = images[2] ? -1 : 0; c <= (images[2] ? 1 : 0); c++) {
            const g = [f[0] + a, f[1] + b, f[2] + c];
            const v = [0, 1, 2].map((q) => g[0] * h[q] + g[1] * h[3 + q] + g[2] * h[6 + q]);
            r = Math.min(r, Math.hypot(v[0], v[1], v[2]));
          }
        }
      }
      const index = Math.ceil(r / dr);
      if (index <= nbins) counts[index] += 1;
    }
  }
  const norm = 2 * Math.PI * dr * (n / volume) * n;
  const r = Float64Array.from({ length: nbins }, (_, k) => (k + 0.5) * dr);
  const g = Float64Array.from(r, (rk, k) => counts[k + 1] / (norm * (rk * rk + (dr * dr) / 12)));
  return { r, g };
}

/**
 * Accumulates each system's g(r) at the states a log records (the input, every `frequency` steps, the
 * last), keyed by systemId, so streamed systems keep their own; `rdf(systemId)` gives the average so far.
 *
 * @example
 * const rdf = new RdfHook({ rmax: 7, nbins: 70, frequency: 50 });
 * await new Langevin({ model, dt: 5, temperature: 90, friction: 0.01, hooks: [rdf] }).run(batch, { steps: 2000 });
 * const { r, g } = rdf.rdf(0);
 */
export class RdfHook {
  readonly stage: DynamicsStage = DynamicsStage.AFTER_STEP;
  readonly frequency: number;
  readonly trigger: Trigger | undefined;
  readonly name: string;
  readonly rmax: number;
  readonly nbins: number;
  // Per systemId: the bin centres, the sum of g over the frames, their count and the last frame's step.
  readonly #sums = new Map<number, { r: Float64Array; sum: Float64Array; frames: number; step: number }>();

  constructor(options: RdfOptions) {
    const owner = 'RdfHook';
    checkKeys(owner, options, ['rmax', 'nbins', 'frequency', 'name']);
    const { rmax, nbins = 100 } = options;
    if (typeof rmax !== 'number' || !(rmax > 0) || !Number.isFinite(rmax)) throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: rmax must be a finite number > 0, got ${showText(rmax)}`, { field: 'rmax', value: rmax });
    if (!Number.isSafeInteger(nbins) || nbins < 1) throw new HookmdRangeError('INVALID_PARAMETER', `${owner}: nbins must be an integer ≥ 1, got ${showText(nbins)}`, { field: 'nbins', value: nbins });
    this.rmax = rmax;
    this.nbins = nbins;
    this.frequency = checkFrequency(owner, options.frequency ?? 100);
    // The states a log records: the input, every multiple of `frequency` steps, and the last.
    this.trigger = multiplesOf(this.stage, this.frequency);
    this.name = options.name ?? owner;
  }

  call(ctx: DynamicsContext<Batch, unknown, DynamicsStage>): void {
    this.#record(ctx.batch, stepsTaken(this.stage, ctx.stepCount), null);
  }

  /** The state a run starts or ends in (after `ctx.stepCount` steps), for the systems in `systems` (null: all). */
  observeState(ctx: DynamicsContext<Batch, unknown, DynamicsStage>, systems: Uint8Array | null): void {
    this.#record(ctx.batch, ctx.stepCount, systems);
  }

  #record(batch: Batch, step: number, systems: Uint8Array | null): void {
    const ids = batch.read('systemId');
    for (let s = 0; s < batch.numSystems; s++) {
      const seen = this.#sums.get(ids[s]);
      if ((systems !== null && systems[s] === 0) || seen?.step === step) continue;
      const { r, g } = radialDistribution(batch, s, this.rmax, this.nbins);
      const entry = seen ?? { r, sum: new Float64Array(this.nbins), frames: 0, step };
      for (let k = 0; k < this.nbins; k++) entry.sum[k] += g[k];
      entry.frames += 1;
      entry.step = step;
      this.#sums.set(ids[s], entry);
    }
  }

  /** System `systemId`'s g(r), averaged over the frames it was seen in; undefined before the first. */
  rdf(systemId: number): Rdf | undefined {
    const entry = this.#sums.get(systemId);
    if (entry === undefined) return undefined;
    return { r: entry.r, g: entry.sum.map((v) => v / entry.frames), frames: entry.frames };
  }
}
