// IDPP interpolation (Smidstrup, Pedersen, Stokbro and Jónsson, J. Chem. Phys. 140, 214106 (2014)) as ASE 3.22's
// `NEB.interpolate('idpp')` runs it: the linearly interpolated band is relaxed, as an NEB with the band's own
// springs, tangent method and climbing image, on the image-dependent pair potential
// E_i = ½ Σ_{a≠b} (d_ab − d^i_ab)² / d_ab⁴, whose targets d^i = d⁰ + i·(d^last − d⁰)/(n − 1) interpolate every
// pair distance of the end points (plain distances, ASE's mic=False), with ASE's MDMin (dt 0.2) until the
// largest NEB force is below 0.1 eV/Å or 100 steps, ase.neb.idpp_interpolate's defaults. Pure geometry: no
// model is called.
import { bandForces, dot, type Geometry, type NEBSettings } from './neb-forces.js';

/** ase.neb.idpp_interpolate's defaults and ase.optimize.MDMin's time step (3.22). */
const IDPP = { fmax: 0.1, steps: 100, dt: 0.2 };

/** Every pair distance of `atoms` atoms starting at `origin` in the flat `positions`, row-major (atoms × atoms). */
function distances(positions: Float64Array, origin: number, atoms: number): Float64Array {
  const d = new Float64Array(atoms * atoms);
  for (let a = 0; a < atoms; a++) {
    for (let b = 0; b < atoms; b++) {
      const x = positions[origin + 3 * b]! - positions[origin + 3 * a]!;
      const y = positions[origin + 3 * b + 1]! - positions[origin + 3 * a + 1]!;
      const z = positions[origin + 3 * b + 2]! - positions[origin + 3 * a + 2]!;
      d[a * atoms + b] = Math.sqrt(x * x + y * y + z * z);
    }
  }
  return d;
}

/**
 * The IDPP energy of one image, its forces written into `forces` at `origin` (ASE's IDPP calculator):
 * F_b = −2 Σ_a w_ab (r_b − r_a), w = δ(1 − 2δ/d)/d⁵ with δ = d − d^i.
 */
function idppImage(positions: Float64Array, forces: Float64Array, origin: number, atoms: number, target: (ab: number) => number): number {
  const d = distances(positions, origin, atoms);
  let energy = 0;
  forces.fill(0, origin, origin + 3 * atoms);
  for (let a = 0; a < atoms; a++) {
    for (let b = 0; b < atoms; b++) {
      if (a === b) continue;
      const r = d[a * atoms + b]!;
      const delta = r - target(a * atoms + b);
      energy += (0.5 * delta * delta) / r ** 4;
      const w = (delta * (1 - (2 * delta) / r)) / r ** 5;
      for (let c = 0; c < 3; c++) forces[origin + 3 * b + c]! -= 2 * w * (positions[origin + 3 * b + c]! - positions[origin + 3 * a + c]!);
    }
  }
  return energy;
}

/**
 * Relaxes the interior images of one band (`n` images of `atoms` atoms, flat and image by image, linearly
 * interpolated) on the IDPP, in place; the end points stay, and so do the atoms `fixed` flags (one per atom of
 * an image), whose IDPP forces are zero as ASE's FixAtoms makes them on each image.
 */
export function idppInterpolate(positions: Float64Array, n: number, atoms: number, settings: NEBSettings, geometry: Geometry, fixed: Uint8Array): void {
  const size = 3 * atoms;
  const first = distances(positions, 0, atoms);
  const last = distances(positions, size * (n - 1), atoms);
  const step = first.map((d0, ab) => (last[ab]! - d0) / (n - 1));
  const forces = new Float64Array(positions.length);
  const energies = new Float64Array(n);
  const interior = positions.subarray(size, size * (n - 1));
  let v: Float64Array | null = null;
  for (let steps = 0; ; steps++) {
    for (let i = 0; i < n; i++) {
      energies[i] = idppImage(positions, forces, size * i, atoms, (ab) => first[ab]! + i * step[ab]!);
      fixed.forEach((m, a) => { if (m) forces.fill(0, size * i + 3 * a, size * i + 3 * a + 3); });
    }
    const f = bandForces(settings, n, atoms, 0, 0, positions, forces, energies, geometry);
    let worst = 0;
    for (let x = 0; x < f.length; x += 3) worst = Math.max(worst, f[x]! ** 2 + f[x + 1]! ** 2 + f[x + 2]! ** 2);
    if (worst < IDPP.fmax ** 2 || steps >= IDPP.steps) return;
    // ase.optimize.MDMin.step: a half kick, the velocity kept only along the force (zeroed when against it),
    // another half kick, then a drift.
    if (v === null) v = new Float64Array(f.length);
    else {
      for (let x = 0; x < f.length; x++) v[x]! += 0.5 * IDPP.dt * f[x]!;
      const vf = dot(v, f);
      const ff = dot(f, f);
      for (let x = 0; x < f.length; x++) v[x] = vf < 0 ? 0 : (f[x]! * vf) / ff;
    }
    for (let x = 0; x < f.length; x++) {
      v[x]! += 0.5 * IDPP.dt * f[x]!;
      interior[x]! += IDPP.dt * v[x]!;
    }
  }
}
