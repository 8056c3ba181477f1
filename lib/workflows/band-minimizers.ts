// The minimizers NEB moves a band with (dynamics minimizers, not the training optimizers of
// lib/training/optimizers), each ASE's own applied to the band as one vector (the interior images' positions,
// image after image), as `FIRE(neb)`, `FIRE2(neb)` or `LBFGS(neb)` moves it: ASE's
// ase.optimize.FIRE (3.22), ase.optimize.FIRE2 (3.23 and later, without ABC) and ase.optimize.LBFGS (3.22,
// without line search), with ASE's defaults. They run here rather than in an engine since a band's NEB forces
// come from the whole band at once (springs and tangents couple its images), and each path keeps its own state.
import { dot } from './neb-forces.js';

/** The minimizer of `new NEB({ optimizer })`. */
export type NEBMinimizerName = 'fire' | 'fire2' | 'lbfgs';

export const NEB_MINIMIZERS: readonly NEBMinimizerName[] = ['fire', 'fire2', 'lbfgs'];

/** One path's minimizer: moves `x` (the band's interior positions, in place) by one step under NEB forces `f`. */
export interface BandMinimizer {
  /**
   * Where the minimizer moves the band before its step proper (FIRE2's inertia correction): true when it moved
   * `x`, so the NEB forces must be computed again there before `step`, as ASE's FIRE2 asks for the gradient anew.
   */
  prepare?(x: Float64Array, f: Float64Array): boolean;
  step(x: Float64Array, f: Float64Array): void;
}

/** A fresh minimizer of that kind, in the state ASE's has before its first step. */
export function bandMinimizer(name: NEBMinimizerName): BandMinimizer {
  if (name === 'fire2') return new Fire2();
  if (name === 'lbfgs') return new Lbfgs();
  return new Fire();
}

/** What both FIRE variants keep: the velocities (none before the first step), dt, the mixing α, the downhill streak. */
abstract class FireState {
  v: Float64Array | null = null;
  dt: number;
  a: number;
  steps = 0;

  constructor(start: { dt: number; astart: number }) {
    this.dt = start.dt;
    this.a = start.astart;
  }

  /** x += dt·v, the step's norm capped at `maxstep` (the whole band's displacement, not per atom). */
  protected drift(x: Float64Array, maxstep: number): void {
    const dr = (this.v as Float64Array).map((vk) => this.dt * vk);
    const norm = Math.sqrt(dot(dr, dr));
    if (norm > maxstep) for (let k = 0; k < dr.length; k++) dr[k] = (maxstep * dr[k]!) / norm;
    for (let k = 0; k < x.length; k++) x[k]! += dr[k]!;
  }
}

/** ase.optimize.FIRE (3.22) with its defaults. */
class Fire extends FireState implements BandMinimizer {
  static readonly defaults = { dt: 0.1, maxstep: 0.2, dtmax: 1.0, nmin: 5, finc: 1.1, fdec: 0.5, astart: 0.1, fa: 0.99 };

  constructor() {
    super(Fire.defaults);
  }

  step(x: Float64Array, f: Float64Array): void {
    const p = Fire.defaults;
    if (this.v === null) this.v = new Float64Array(f.length);
    else if (dot(f, this.v) > 0) {
      const scale = (this.a * Math.sqrt(dot(this.v, this.v))) / Math.sqrt(dot(f, f));
      for (let k = 0; k < f.length; k++) this.v[k] = (1 - this.a) * this.v[k]! + scale * f[k]!;
      if (this.steps > p.nmin) {
        this.dt = Math.min(this.dt * p.finc, p.dtmax);
        this.a *= p.fa;
      }
      this.steps += 1;
    } else {
      this.v.fill(0);
      this.a = p.astart;
      this.dt *= p.fdec;
      this.steps = 0;
    }
    const v = this.v;
    for (let k = 0; k < f.length; k++) v[k]! += this.dt * f[k]!;
    this.drift(x, p.maxstep);
  }
}

/**
 * ase.optimize.FIRE2 (Guénolé et al. 2020; ASE 3.23 and later, use_abc=False) with its defaults: semi-implicit
 * Euler (the kick before the mixing) and, on an uphill step, the inertia correction x −= ½·dt·v with the
 * shrunk dt before the velocities are zeroed, after which the kick uses the forces at the corrected positions. It is ASE's FIRE2, so its defaults (Nmin 20, astart 0.25,
 * dtmin 2e-3) are ASE's, not those of the engine `FIRE2`.
 */
class Fire2 extends FireState implements BandMinimizer {
  static readonly defaults = { dt: 0.1, maxstep: 0.2, dtmax: 1.0, dtmin: 2e-3, nmin: 20, finc: 1.1, fdec: 0.5, astart: 0.25, fa: 0.99 };

  constructor() {
    super(Fire2.defaults);
  }

  prepare(x: Float64Array, f: Float64Array): boolean {
    const p = Fire2.defaults;
    if (this.v === null) {
      this.v = new Float64Array(f.length);
      return false;
    }
    if (dot(f, this.v) > 0) {
      this.steps += 1;
      if (this.steps > p.nmin) {
        this.dt = Math.min(this.dt * p.finc, p.dtmax);
        this.a *= p.fa;
      }
      return false;
    }
    this.steps = 0;
    this.dt = Math.max(this.dt * p.fdec, p.dtmin);
    this.a = p.astart;
    const back = -0.5 * this.dt;
    for (let k = 0; k < x.length; k++) x[k]! += back * this.v[k]!;
    this.v.fill(0);
    return true;
  }

  step(x: Float64Array, f: Float64Array): void {
    const p = Fire2.defaults;
    const v = this.v as Float64Array;
    for (let k = 0; k < f.length; k++) v[k]! += this.dt * f[k]!;
    const [nf, nv] = [Math.sqrt(dot(f, f)), Math.sqrt(dot(v, v))];
    for (let k = 0; k < f.length; k++) v[k] = (1 - this.a) * v[k]! + ((this.a * f[k]!) / nf) * nv;
    this.drift(x, p.maxstep);
  }
}

/**
 * ase.optimize.LBFGS (3.22) with its defaults (memory 100, damping 1, alpha 70, maxstep 0.2), no line search:
 * the two-loop recursion over the last `memory` position and force changes from H0 = 1/alpha, the step scaled
 * so that no atom moves by more than maxstep (per atom, unlike FIRE's cap on the whole step).
 */
class Lbfgs implements BandMinimizer {
  static readonly defaults = { memory: 100, damping: 1, alpha: 70, maxstep: 0.2 };
  readonly s: Float64Array[] = [];
  readonly y: Float64Array[] = [];
  readonly rho: number[] = [];
  r0: Float64Array | null = null;
  f0: Float64Array | null = null;
  iteration = 0;

  step(x: Float64Array, f: Float64Array): void {
    const p = Lbfgs.defaults;
    if (this.iteration > 0) {
      const s0 = x.map((xk, k) => xk - this.r0![k]!);
      const y0 = this.f0!.map((fk, k) => fk - f[k]!);
      this.s.push(s0);
      this.y.push(y0);
      this.rho.push(1 / dot(y0, s0));
    }
    if (this.iteration > p.memory) {
      this.s.shift();
      this.y.shift();
      this.rho.shift();
    }
    const loopmax = Math.min(p.memory, this.iteration);
    const a = new Float64Array(loopmax);
    const q = f.map((fk) => -fk);
    for (let i = loopmax - 1; i >= 0; i--) {
      a[i] = this.rho[i]! * dot(this.s[i]!, q);
      const yi = this.y[i]!;
      for (let k = 0; k < q.length; k++) q[k]! -= a[i]! * yi[k]!;
    }
    const z = q.map((qk) => (1 / p.alpha) * qk);
    for (let i = 0; i < loopmax; i++) {
      const b = this.rho[i]! * dot(this.y[i]!, z);
      const si = this.s[i]!;
      for (let k = 0; k < z.length; k++) z[k]! += si[k]! * (a[i]! - b);
    }
    const dr = z.map((zk) => -zk);
    let longest = 0;
    for (let k = 0; k < dr.length; k += 3) longest = Math.max(longest, Math.sqrt(dr[k]! ** 2 + dr[k + 1]! ** 2 + dr[k + 2]! ** 2));
    const scale = longest >= p.maxstep ? p.maxstep / longest : 1;
    this.r0 = Float64Array.from(x);
    this.f0 = Float64Array.from(f);
    for (let k = 0; k < x.length; k++) x[k]! += dr[k]! * scale * p.damping;
    this.iteration += 1;
  }
}
