// The nudged elastic band over one or many paths at once, with the conventions of ASE's `ase.neb.NEB` (3.22):
// the images of every path are the systems of one batch, so each step is one native force call for all of
// them; the forces become NEB forces by ASE's 'aseneb' or 'improvedtangent' projection (with the climbing
// image of Henkelman et al. when asked), and each path is optimised with ASE's FIRE, FIRE2 or LBFGS over its
// whole band, step for step as `FIRE(neb).run(fmax)` moves it (band-minimizers.ts). Fixed atoms (info.fixed,
// FixAtoms) feel no force and never move, as ASE's FixAtoms on every image. Hooks of the generic kernel
// (NEBStage) see the images at each stage of a step.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { Batch } from '../data/index.js';
import type { System } from '../data/index.js';
import { FixAtoms } from '../dynamics/constraints/fix-atoms.js';
import { fixedMask } from '../dynamics/hooks/freeze-atoms.js';
import { HookRegistry, type Hook } from '../hooks/index.js';
import type { Model } from '../models/index.js';
import { checkKeys } from '../option-keys.js';
import { idppInterpolate } from './idpp.js';
import { bandMinimizer, NEB_MINIMIZERS, type BandMinimizer, type NEBMinimizerName } from './band-minimizers.js';
import { bandForces, geometryOf, invert, type Geometry, type NEBSettings } from './neb-forces.js';
import { showText, showValue } from '../describe-value.js';

/** The stages of one NEB step, in order. */
export const NEBStage: Readonly<{ BEFORE_STEP: 0; AFTER_COMPUTE: 1; AFTER_STEP: 2 }> = Object.freeze({ BEFORE_STEP: 0, AFTER_COMPUTE: 1, AFTER_STEP: 2 } as const);
export type NEBStage = (typeof NEBStage)[keyof typeof NEBStage];

/** What NEB hooks see: the batch of every image, and for each image (batch order) its path, energy and residual. */
export interface NEBContext {
  stepCount: number;
  readonly batch: Batch;
  /** Path of each image, and its index along the path. */
  readonly pathOf: Int32Array;
  readonly imageOf: Int32Array;
  /** Energy of each image (eV), from this step's compute (at BEFORE_STEP: the last one). */
  readonly energies: Float64Array;
  /** Largest NEB force of each path (eV/Å), the residual the convergence test reads. */
  readonly residuals: Float64Array;
  /**
   * Per-image scalars under the names dynamics hooks read (`ctx.scalars.energy`), so a hook written for an
   * engine reads a band the same way; `energy` is the same array as `energies`.
   */
  readonly scalars: { readonly energy: Float64Array };
}

/** Options of `new NEB(...)`. */
export interface NEBOptions {
  model: Model;
  /** One path (its images, end points included) or several; with `interpolate`, a path may be just its two end points. */
  images: readonly System[] | readonly (readonly System[])[];
  /** Climbing image: the highest one climbs along the tangent, free of springs; default false. */
  climb?: boolean;
  /** Spring constant k (eV/Å²); default 0.1, as ASE. */
  springConstant?: number;
  /** 'aseneb' (ASE's default) or 'improvedtangent' (Henkelman and Jónsson 2000). */
  method?: 'aseneb' | 'improvedtangent';
  /**
   * Fill each path's interior images from its end points: 'linear', as ase.neb.interpolate, or 'idpp', as
   * ASE's `neb.interpolate('idpp')`: linear, then the band relaxed on the image-dependent pair potential.
   */
  interpolate?: 'linear' | 'idpp';
  /** With `interpolate`: images per path, end points included (default: the path's own count). */
  numImages?: number;
  /**
   * How each band is optimised, step for step as ASE's optimiser of that name over an NEB, with ASE's defaults:
   * 'fire' (ase.optimize.FIRE, the default), 'fire2' (ase.optimize.FIRE2 of ASE 3.23+) or 'lbfgs'
   * (ase.optimize.LBFGS). Each path has its own optimiser state over its whole band.
   */
  optimizer?: NEBMinimizerName;
  /**
   * Atoms fixed in every image, as ASE's FixAtoms attached to each image (indices in an image's atom order),
   * on top of those the images mark in `info.fixed` (a POSCAR's selective dynamics). They feel no force and
   * never move; every image of a path must fix the same atoms, at the same positions.
   */
  constraints?: readonly FixAtoms[];
  hooks?: readonly Hook<NEBStage, NEBContext>[];
}

/** One path's outcome. */
export interface NEBPath {
  readonly images: System[];
  /** Energy of each image (eV). */
  readonly energies: number[];
  /** max E − E(initial): the forward barrier (eV); `reverseBarrier` is max E − E(final). */
  readonly barrier: number;
  readonly reverseBarrier: number;
  /** The highest image, and its index. */
  readonly saddle: System;
  readonly saddleIndex: number;
  readonly converged: boolean;
}

/** What `run()` returns; `barrier`, `path` (its energies) and `saddle` are the first path's, for the one-path case. */
export interface NEBResult {
  readonly paths: NEBPath[];
  readonly converged: boolean;
  readonly steps: number;
  readonly barrier: number;
  readonly path: number[];
  readonly saddle: System;
}

/** The batch of every image and where each path sits in it. */
interface Band {
  batch: Batch;
  pathOf: Int32Array;
  imageOf: Int32Array;
  firstImage: number[];
  atoms: number[];
  energies: Float64Array;
  cells: Geometry[];
}

function samePath(where: string, path: readonly System[]): void {
  const first = path[0] as System;
  const count = (first.positions as unknown[]).length;
  const numbers = JSON.stringify(first.atomicNumbers ?? first.symbols);
  const cell = JSON.stringify(first.cell ?? null);
  const pbc = JSON.stringify(first.pbc ?? false);
  path.forEach((image, k) => {
    if ((image.positions as unknown[]).length !== count) {
      throw new HookmdRangeError('INVALID_IMAGES', `${where}: image ${k} has ${(image.positions as unknown[]).length} atoms, image 0 has ${count}`, { field: 'images', index: k });
    }
    if (JSON.stringify(image.atomicNumbers ?? image.symbols) !== numbers) {
      throw new HookmdRangeError('INVALID_IMAGES', `${where}: image ${k} has its atoms in another order (or other species) than image 0`, { field: 'images', index: k });
    }
    if (JSON.stringify(image.cell ?? null) !== cell || JSON.stringify(image.pbc ?? false) !== pbc) {
      throw new HookmdRangeError('INVALID_IMAGES', `${where}: image ${k} has another cell or pbc than image 0 (variable-cell NEB is not implemented, as in ASE)`, { field: 'images', index: k });
    }
  });
}

/**
 * Refuses neighbouring images (or end points) between which an atom moves by half a periodic lattice vector or
 * more: one of them was wrapped into the cell, so the band would drag the atom across it instead of taking
 * the short way.
 */
function unwrapped(where: string, path: readonly System[]): void {
  const { cell, pbc } = geometryOf(path[0] as System);
  if (cell === undefined || !pbc.some(Boolean)) return;
  const inverse = invert(cell);
  for (let k = 1; k < path.length; k++) {
    const [from, to] = [rows(path[k - 1] as System), rows(path[k] as System)];
    from.forEach((r, a) => {
      const d = r.map((x, c) => (to[a] as number[])[c]! - x);
      [0, 1, 2].forEach((c) => {
        const fraction = d[0]! * inverse[0]![c]! + d[1]! * inverse[1]![c]! + d[2]! * inverse[2]![c]!;
        if (pbc[c] && Math.abs(fraction) >= 0.5) {
          throw new HookmdRangeError('INVALID_IMAGES', `${where}: atom ${a} moves by ${fraction.toFixed(3)} of lattice vector ${c} from image ${k - 1} to image ${k}: the images differ by a lattice vector (wrap or unwrap that atom so it takes the short way)`, { field: 'images', index: k });
        }
      });
    });
  }
}

/**
 * The atoms a path fixes: those its images mark (info.fixed, an ASE FixAtoms in info.aseConstraints) and those
 * `constraints` name. Every image must mark the same ones (end points that disagree would leave it unclear
 * whether an atom may move along the band), and a fixed atom must sit at the same place in every image, since
 * it never moves: typed errors before any force call.
 */
function fixedAtoms(where: string, path: readonly System[], constraints: readonly FixAtoms[]): Uint8Array {
  const marks = path.map((image) => fixedMask([image], where));
  marks.forEach((mark, k) => {
    const a = mark.findIndex((m, i) => m !== marks[0]![i]);
    if (a >= 0) {
      throw new HookmdRangeError('INVALID_IMAGES', `${where}: image ${k} ${mark[a] ? 'fixes' : 'does not fix'} atom ${a} and image 0 ${mark[a] ? 'does not' : 'does'} (info.fixed): every image of a path must fix the same atoms`, { field: 'images', index: k });
    }
  });
  const one = Batch.fromSystems([path[0] as System], { units: 'metal' });
  const mask = Uint8Array.from(marks[0] as number[]);
  for (const constraint of constraints) constraint.maskFor(one).forEach((m, a) => { if (m) mask[a] = 1; });
  const first = rows(path[0] as System);
  path.forEach((image, k) => {
    const r = rows(image);
    const a = first.findIndex((x, i) => mask[i] === 1 && x.some((c, j) => c !== (r[i] as number[])[j]));
    if (a >= 0) {
      throw new HookmdRangeError('INVALID_IMAGES', `${where}: fixed atom ${a} is at ${JSON.stringify(r[a])} in image ${k} but at ${JSON.stringify(first[a])} in image 0: a fixed atom never moves, so it must sit at the same place in every image`, { field: 'images', index: k });
    }
  });
  return mask;
}

/** Positions of a system as rows. */
const rows = (system: System): number[][] => {
  const p = system.positions as number[][] | number[];
  return typeof p[0] === 'number' ? Array.from({ length: p.length / 3 }, (_, i) => (p as number[]).slice(3 * i, 3 * i + 3)) : (p as number[][]).map((r) => [...r]);
};

export class NEB {
  readonly #model: Model;
  readonly #paths: System[][];
  readonly #settings: NEBSettings;
  readonly #optimizer: NEBMinimizerName;
  /** Per path, one flag per atom of an image: 1 for the atoms every image fixes. */
  readonly #fixed: Uint8Array[];
  readonly #hooks: HookRegistry<typeof NEBStage, NEBContext & { stepCount: number }>;

  constructor(options: NEBOptions) {
    if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', 'NEB: options must be an object with model and images', { field: 'options', value: options });
    checkKeys('NEB', options, ['model', 'images', 'climb', 'springConstant', 'method', 'interpolate', 'numImages', 'optimizer', 'constraints', 'hooks'], '', { k: 'springConstant', n_images: 'numImages' });
    const { model, images } = options;
    if (model === null || typeof model !== 'object' || typeof model.compute !== 'function') {
      throw new HookmdTypeError('INVALID_MODEL', 'NEB: model must be a model (an object with compute(batch, options))', { field: 'model', value: model });
    }
    if (!Array.isArray(images) || images.length === 0) throw new HookmdTypeError('INVALID_IMAGES', 'NEB: images must be an array of systems, or of paths', { field: 'images', value: images });
    const paths = (Array.isArray(images[0]) ? images : [images]) as System[][];
    const method = options.method ?? 'aseneb';
    if (method !== 'aseneb' && method !== 'improvedtangent') {
      throw new HookmdTypeError('INVALID_OPTIONS', `NEB: method must be 'aseneb' or 'improvedtangent', got ${showValue(method)}`, { field: 'method', value: method });
    }
    const k = options.springConstant ?? 0.1;
    if (typeof k !== 'number' || !Number.isFinite(k) || !(k > 0)) throw new HookmdRangeError('INVALID_PARAMETER', `NEB: springConstant must be a number > 0, got ${showValue(k)}`, { field: 'springConstant', value: k });
    const interpolate = options.interpolate;
    if (interpolate !== undefined && interpolate !== 'linear' && interpolate !== 'idpp') {
      throw new HookmdTypeError('INVALID_OPTIONS', `NEB: interpolate must be 'linear' or 'idpp', got ${showValue(interpolate)}`, { field: 'interpolate', value: interpolate });
    }
    const optimizer = options.optimizer ?? 'fire';
    if (!NEB_MINIMIZERS.includes(optimizer)) {
      throw new HookmdTypeError('INVALID_OPTIONS', `NEB: optimizer must be 'fire', 'fire2' or 'lbfgs', got ${showValue(optimizer)}`, { field: 'optimizer', value: optimizer });
    }
    const constraints = options.constraints ?? [];
    if (!Array.isArray(constraints) || !constraints.every((c) => c instanceof FixAtoms)) {
      throw new HookmdTypeError('INVALID_OPTIONS', 'NEB: constraints must be an array of FixAtoms', { field: 'constraints', value: constraints });
    }
    const settings: NEBSettings = { k, method, climb: options.climb ?? false };
    const fixed: Uint8Array[] = [];
    this.#paths = paths.map((path, p) => {
      const where = paths.length > 1 ? `NEB: path ${p}` : 'NEB';
      if (!Array.isArray(path) || path.length < 2) throw new HookmdRangeError('INVALID_IMAGES', `${where}: a path needs its two end points at least`, { field: 'images', index: p });
      samePath(where, path);
      unwrapped(where, path);
      fixed.push(fixedAtoms(where, path, constraints));
      const count = interpolate === undefined ? path.length : (options.numImages ?? path.length);
      if (!Number.isInteger(count) || count < 3) throw new HookmdRangeError('INVALID_IMAGES', `${where}: a band needs at least 3 images (end points included), got ${showText(count)}`, { field: 'numImages', value: count });
      if (interpolate === undefined) return path.map((image) => ({ ...image }));
      // ase.neb.interpolate: image i at x₀ + i·d, d = (x_last − x₀)/(n − 1), in ASE's order of operations.
      const start = rows(path[0] as System);
      const end = rows(path[path.length - 1] as System);
      const flat = new Float64Array(3 * start.length * count);
      start.forEach((r, a) => r.forEach((x, c) => {
        const d = ((end[a] as number[])[c]! - x) / (count - 1);
        for (let i = 0; i < count; i++) flat[3 * (start.length * i + a) + c] = x + i * d;
      }));
      flat.set(end.flat(), 3 * start.length * (count - 1));
      if (interpolate === 'idpp') idppInterpolate(flat, count, start.length, settings, geometryOf(path[0] as System), fixed[p] as Uint8Array);
      const band: System[] = Array.from({ length: count }, (_, i) => ({
        ...(path[0] as System),
        positions: start.map((_, a) => Array.from(flat.subarray(3 * (start.length * i + a), 3 * (start.length * i + a) + 3))),
      }));
      band[count - 1] = { ...(path[path.length - 1] as System) };
      return band;
    });
    this.#settings = settings;
    this.#optimizer = optimizer;
    this.#fixed = fixed;
    this.#model = model;
    this.#hooks = new HookRegistry(NEBStage);
    for (const hook of options.hooks ?? []) this.#hooks.register(hook);
  }

  /** The hook registry of the NEB stages. */
  get hooks(): HookRegistry<typeof NEBStage, NEBContext & { stepCount: number }> {
    return this.#hooks;
  }

  /**
   * The NEB forces on the interior images of each band as given (interpolated), one Float64Array per path
   * ((images − 2) × atoms × 3, eV/Å), as ASE's `neb.get_forces()` returns them before any step.
   */
  async forces(): Promise<Float64Array[]> {
    const band = this.#band();
    await this.#model.compute(band.batch);
    band.energies.set(band.batch.read('energy'));
    return this.#nebForces(band);
  }

  /** Relaxes every band until each path's largest NEB force is below `fmax` (eV/Å), or `steps` steps. */
  async run(options: { fmax?: number; steps?: number } = {}): Promise<NEBResult> {
    checkKeys('NEB.run', options, ['fmax', 'steps']);
    const fmax = options.fmax ?? 0.05;
    const maxSteps = options.steps ?? 1000;
    if (typeof fmax !== 'number' || !(fmax > 0)) throw new HookmdRangeError('INVALID_PARAMETER', `NEB.run: fmax must be a number > 0, got ${showValue(fmax)}`, { field: 'fmax', value: fmax });
    if (!Number.isInteger(maxSteps) || maxSteps < 0) throw new HookmdRangeError('INVALID_PARAMETER', `NEB.run: steps must be an integer >= 0, got ${showValue(maxSteps)}`, { field: 'steps', value: maxSteps });
    const band = this.#band();
    const { batch, pathOf, imageOf, firstImage, atoms, energies } = band;
    const residuals = new Float64Array(this.#paths.length).fill(Infinity);
    const optimizers: BandMinimizer[] = this.#paths.map(() => bandMinimizer(this.#optimizer));
    const done = this.#paths.map(() => false);
    const ctx: NEBContext = { stepCount: 0, batch, pathOf, imageOf, energies, residuals, scalars: { energy: energies } };
    let step = 0;
    for (;;) {
      // One context per dispatch (docs/hooks.md, rule 5): a hook that keeps its ctx keeps what it saw.
      await this.#hooks.dispatch(NEBStage.BEFORE_STEP, { ...ctx });
      await this.#model.compute(batch);
      energies.set(batch.read('energy'));
      const nebForces = this.#nebForces(band);
      nebForces.forEach((f, p) => {
        let worst = 0;
        for (let x = 0; x < f.length; x += 3) worst = Math.max(worst, f[x]! ** 2 + f[x + 1]! ** 2 + f[x + 2]! ** 2);
        residuals[p] = Math.sqrt(worst);
        if (residuals[p]! < fmax) done[p] = true;
      });
      await this.#hooks.dispatch(NEBStage.AFTER_COMPUTE, { ...ctx });
      if (done.every(Boolean) || step >= maxSteps) break;
      const ptr = batch.read('ptr');
      // The band's interior images follow its first one in the batch.
      const interior = (p: number): Float64Array => {
        const start = 3 * ((ptr[firstImage[p] as number] as number) + (atoms[p] as number));
        return batch.positions.subarray(start, start + (nebForces[p] as Float64Array).length);
      };
      const live = nebForces.map((_, p) => !done[p]);
      let forces = nebForces;
      // A path whose optimiser moved it before stepping (FIRE2's inertia correction) needs its NEB forces there:
      // one more force call for the whole batch, which leaves the other paths' forces as they were.
      const moved = live.map((on, p) => on && ((optimizers[p] as BandMinimizer).prepare?.(interior(p), forces[p] as Float64Array) ?? false));
      if (moved.some(Boolean)) {
        await this.#model.compute(batch);
        energies.set(batch.read('energy'));
        forces = this.#nebForces(band);
      }
      forces.forEach((f, p) => {
        if (live[p]) (optimizers[p] as BandMinimizer).step(interior(p), f);
      });
      await this.#hooks.dispatch(NEBStage.AFTER_STEP, { ...ctx });
      step += 1;
      ctx.stepCount = step;
    }
    const finals = batch.toSystems();
    const results = this.#paths.map((path, p): NEBPath => {
      const first = firstImage[p] as number;
      const e = Array.from(energies.subarray(first, first + path.length));
      let top = 1;
      for (let i = 1; i < e.length - 1; i++) if (e[i]! > e[top]!) top = i;
      const images = finals.slice(first, first + path.length).map((s, i) => ({ ...s, info: { ...(s.info ?? {}), path: p, image: i } }));
      return { images, energies: e, barrier: e[top]! - e[0]!, reverseBarrier: e[top]! - e[e.length - 1]!, saddle: images[top] as System, saddleIndex: top, converged: done[p] as boolean };
    });
    const [one] = results as [NEBPath];
    return { paths: results, converged: done.every(Boolean), steps: step, barrier: one.barrier, path: one.energies, saddle: one.saddle };
  }

  /** The batch of every image and where each path sits in it. */
  #band(): Band {
    const systems = this.#paths.flat();
    const batch = Batch.fromSystems(systems, { units: 'metal' });
    const pathOf = Int32Array.from(this.#paths.flatMap((path, p) => path.map(() => p)));
    const imageOf = Int32Array.from(this.#paths.flatMap((path) => path.map((_, i) => i)));
    const firstImage = this.#paths.map((_, p) => pathOf.indexOf(p));
    const atoms = this.#paths.map((path) => rows(path[0] as System).length);
    const cells = this.#paths.map((path) => geometryOf(path[0] as System));
    return { batch, pathOf, imageOf, firstImage, atoms, energies: new Float64Array(systems.length), cells };
  }

  /** NEB forces of every path at the batch's current positions, forces and energies. */
  #nebForces(band: Band): Float64Array[] {
    const { batch, firstImage, atoms, energies, cells } = band;
    const forces = batch.read('forces');
    const positions = batch.read('positions');
    const ptr = batch.read('ptr');
    return this.#paths.map((path, p) => {
      const origin = 3 * (ptr[firstImage[p] as number] as number);
      // As ASE's FixAtoms on each image: the fixed atoms' true forces are zero, and since they sit at the same
      // positions in every image the tangent has no part on them either, so their NEB force is zero.
      const mask = this.#fixed[p] as Uint8Array;
      for (let i = 0; i < path.length; i++) {
        mask.forEach((m, a) => { if (m) forces.fill(0, origin + 3 * ((atoms[p] as number) * i + a), origin + 3 * ((atoms[p] as number) * i + a) + 3); });
      }
      return bandForces(this.#settings, path.length, atoms[p] as number, origin, firstImage[p] as number, positions, forces, energies, cells[p] as Geometry);
    });
  }
}
