// The band path of `hookmd phonons --path`: labelled special points in reduced coordinates, continuous
// segments separated by '|', and `npoints` q points spread over them as ASE's bandpath does
// (ase.dft.kpoints.paths2kpts, 3.22): each leg gets points in proportion to its length in the reciprocal
// lattice (2π/Å), a jump between segments has length 0, and the linear axis is that length summed.
import { InvalidArgumentError } from 'commander';

import { invert3 } from '../data/index.js';

/** A labelled special point. */
export interface SpecialPoint {
  label: string;
  q: [number, number, number];
}

/** The q points of a path, their positions on the linear axis (2π/Å), and where the labels sit on it. */
export interface BandPath {
  q: Array<[number, number, number]>;
  distance: number[];
  labels: Array<{ label: string; distance: number }>;
}

/** "G=0,0,0;X=0.5,0,0.5|L=0.5,0.5,0.5;K=0.375,0.375,0.75": segments of labelled points, two at least in each. */
export function pathFlag(text: string): SpecialPoint[][] {
  return text.split('|').map((segment) => {
    const points = segment.split(';').map((point) => {
      const match = /^\s*([^=;|\s]+)\s*=\s*([^=]+)$/.exec(point);
      const q = match === null ? [] : (match[2] as string).split(',').map(Number);
      if (match === null || q.length !== 3 || q.some((x) => !Number.isFinite(x))) {
        throw new InvalidArgumentError(`expected labelled q points as G=0,0,0;X=0.5,0,0.5 (segments separated by '|'), got '${point}'`);
      }
      return { label: match[1] as string, q: q as [number, number, number] };
    });
    if (points.length < 2) throw new InvalidArgumentError(`each segment of the path needs two points at least, got '${segment}'`);
    return points;
  });
}

/** Python's round(): halves go to the even neighbour (ASE rounds the points per leg with it). */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** The q points of `segments` for the cell `cell` (rows, flat), `npoints` in all, as ASE's paths2kpts; undefined for a singular cell. */
export function bandPath(cell: readonly number[], segments: readonly SpecialPoint[][], npoints: number): BandPath | undefined {
  const inverse = invert3(cell);
  if (inverse === undefined) return undefined;
  const points = segments.flat();
  // Reduced q → Cartesian: q · 2π (cell⁻¹)ᵀ, i.e. component c is 2π Σ_k q_k inverse[c][k].
  const length = (d: readonly number[]): number => Math.hypot(...[0, 1, 2].map((c) => 2 * Math.PI * [0, 1, 2].reduce((s, k) => s + (d[k] as number) * (inverse[3 * c + k] as number), 0)));
  const legs = points.slice(1).map((p, i) => p.q.map((x, c) => x - ((points[i] as SpecialPoint).q[c] as number)));
  const lengths = legs.map(length);
  let end = 0;
  for (const segment of segments.slice(0, -1)) {
    end += segment.length;
    lengths[end - 1] = 0;
  }
  const total = lengths.reduce((s, l) => s + l, 0);
  const q: Array<[number, number, number]> = [];
  const distance: number[] = [];
  const stops = [0];
  let x0 = 0;
  legs.forEach((d, i) => {
    const leg = lengths[i] as number;
    const n = Math.abs(total - x0) < 1e-6 ? 0 : Math.max(2, roundHalfEven((leg * (npoints - distance.length)) / (total - x0)));
    const start = (points[i] as SpecialPoint).q;
    for (let k = 0; k < n - 1; k++) {
      const t = k / (n - 1);
      q.push([0, 1, 2].map((c) => (start[c] as number) + t * (d[c] as number)) as [number, number, number]);
      distance.push(x0 + t * leg);
    }
    x0 += leg;
    stops.push(x0);
  });
  q.push([...(points.at(-1) as SpecialPoint).q]);
  distance.push(x0);
  // A jump between segments puts two labels at one position: they become one, 'W|L', as ASE writes it.
  const labels: BandPath['labels'] = [];
  points.forEach((p, i) => {
    const last = labels.at(-1);
    if (last !== undefined && last.distance === stops[i]) last.label += `|${p.label}`;
    else labels.push({ label: p.label, distance: stops[i] as number });
  });
  return { q, distance, labels };
}
