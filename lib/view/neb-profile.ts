// The NEB energy profile of a band file (what `hookmd neb --out` writes: every image with its energy, forces
// and info.path / info.image), as ASE's NEBTools draws it (ase.utils.forcecurve.fit_raw, 3.22): energy
// relative to the path's first image against the reaction coordinate, the summed minimum-image distance
// from image to image, and a cubic through each pair of neighbours whose slopes are the forces along the path.
import { invert3, type System } from '../data/index.js';
import { flatCell, flatVectors, type ViewPlot, type ViewSeries } from './view-model.js';

/** One path's profile: the images' reaction coordinate (Å) and relative energies (eV), and the fitted curve. */
export interface NebProfile {
  path: number;
  distance: number[];
  energies: number[];
  fitDistance: number[];
  fitEnergies: number[];
  /** max E − E(initial) over the interior images, as NEB's result.barrier; and that image. */
  barrier: number;
  saddleIndex: number;
}

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * Whether `structures` are NEB bands: at least three frames, each with an energy and integer `info.path`
 * and `info.image`, every path's images numbered 0, 1, … in file order.
 */
export function isNebBand(structures: readonly System[]): boolean {
  if (structures.length < 3) return false;
  const next = new Map<number, number>();
  for (const { info, energy } of structures) {
    if (energy === undefined || !isIndex(info?.path) || !isIndex(info?.image)) return false;
    if (info.image !== (next.get(info.path) ?? 0)) return false;
    next.set(info.path, info.image + 1);
  }
  return [...next.values()].every((images) => images >= 3);
}

/** b − a per atom, wrapped in the periodic directions by fractional rounding (find_mic for a cell no skewer than NEB's own springs). */
function separation(b: number[], a: number[], cell: number[] | null, pbc: boolean[]): number[] {
  const d = b.map((x, k) => x - (a[k] as number));
  const inverse = cell === null ? undefined : invert3(cell);
  if (cell === null || inverse === undefined || !pbc.some(Boolean)) return d;
  for (let x = 0; x < d.length; x += 3) {
    const f = [0, 1, 2].map((c) => (d[x] as number) * (inverse[c] as number) + (d[x + 1] as number) * (inverse[3 + c] as number) + (d[x + 2] as number) * (inverse[6 + c] as number));
    for (let c = 0; c < 3; c++) if (pbc[c]) f[c] = (f[c] as number) - Math.round(f[c] as number);
    for (let c = 0; c < 3; c++) d[x + c] = (f[0] as number) * (cell[c] as number) + (f[1] as number) * (cell[3 + c] as number) + (f[2] as number) * (cell[6 + c] as number);
  }
  return d;
}

const norm = (v: readonly number[]): number => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));

/** fit_raw of one path's images (in order). */
function profileOf(path: number, images: readonly System[]): NebProfile {
  const e0 = images[0]?.energy as number;
  const energies = images.map((image) => (image.energy as number) - e0);
  const positions = images.map((image) => flatVectors(image.positions));
  const forces = images.map((image) => flatVectors(image.forces));
  const cell = flatCell(images[0]?.cell);
  const pbcOf = images[0]?.pbc;
  const pbc = pbcOf === true ? [true, true, true] : pbcOf === undefined || pbcOf === false ? [false, false, false] : Array.from(pbcOf, Boolean);
  const n = images.length;
  const distance = [0];
  for (let i = 0; i + 1 < n; i++) distance.push((distance[i] as number) + norm(separation(positions[i + 1] as number[], positions[i] as number[], cell, pbc)));
  // The slope dE/ds at each image is −F·τ, τ along the neighbouring images' raw positions, as ASE has it.
  const slopes = positions.map((_, i) => {
    const [from, to] = i === 0 ? [0, 1] : i === n - 1 ? [n - 2, n - 1] : [i - 1, i + 1];
    const direction = (positions[to] as number[]).map((x, k) => x - ((positions[from] as number[])[k] as number));
    const length = norm(direction);
    const f = forces[i] as number[];
    return f.length === 0 ? 0 : -direction.reduce((sum, x, k) => sum + (x / length) * (f[k] as number), 0);
  });
  const fitDistance: number[] = [];
  const fitEnergies: number[] = [];
  for (let i = 1; i < n; i++) {
    const [s0, s1] = [distance[i - 1] as number, distance[i] as number];
    // The cubic with E and dE/ds at both ends, in Hermite form (ASE solves the same 4×4 system).
    const [e0i, e1i, m0, m1] = [energies[i - 1] as number, energies[i] as number, slopes[i - 1] as number, slopes[i] as number];
    const h = s1 - s0;
    for (let k = 0; k < 20; k++) {
      const t = k / 20;
      const [h00, h10, h01, h11] = [2 * t ** 3 - 3 * t ** 2 + 1, t ** 3 - 2 * t ** 2 + t, -2 * t ** 3 + 3 * t ** 2, t ** 3 - t ** 2];
      fitDistance.push(s0 + t * h);
      fitEnergies.push(h00 * e0i + h10 * h * m0 + h01 * e1i + h11 * h * m1);
    }
  }
  fitDistance.push(distance[n - 1] as number);
  fitEnergies.push(energies[n - 1] as number);
  let saddleIndex = 1;
  for (let i = 1; i < n - 1; i++) if ((energies[i] as number) > (energies[saddleIndex] as number)) saddleIndex = i;
  return { path, distance, energies, fitDistance, fitEnergies, barrier: energies[saddleIndex] as number, saddleIndex };
}

/** The profile of every path of a band file, in order of first appearance. */
export function nebProfiles(structures: readonly System[]): NebProfile[] {
  const paths = new Map<number, System[]>();
  for (const structure of structures) {
    const path = structure.info?.path as number;
    const images = paths.get(path);
    if (images === undefined) paths.set(path, [structure]);
    else images.push(structure);
  }
  return [...paths].map(([path, images]) => profileOf(path, images));
}

/** The page's plot of the profiles of file `file` (its name `name`): the images as points, the fits as lines, each saddle marked with its barrier. */
export function nebPlot(profiles: readonly NebProfile[], file: number, name: string): ViewPlot {
  const series: ViewSeries[] = profiles.flatMap((p) => [
    { label: `path ${p.path}`, x: p.distance, y: p.energies, points: true },
    { label: `path ${p.path} fit`, x: p.fitDistance, y: p.fitEnergies },
  ]);
  const notes = profiles.map((p) => `path ${p.path}: barrier ${p.barrier.toFixed(6)} eV at image ${p.saddleIndex}, reaction energy ${(p.energies.at(-1) as number).toFixed(6)} eV`);
  const marks = profiles.map((p) => ({ x: p.distance[p.saddleIndex] as number, y: p.barrier, label: `${p.barrier.toFixed(4)} eV` }));
  return { id: `neb-${file}`, title: `NEB energy profile: ${name}`, system: null, xLabel: 'reaction coordinate (Å)', yLabel: 'E − E(initial) (eV)', series, marks, notes };
}
