// The NEB force projection of ASE's ase.neb.NEB.get_forces (3.22) over one band: the true forces of the
// interior images with their tangential part replaced by the springs' ('aseneb', ASE's default, or
// 'improvedtangent', Henkelman and Jónsson 2000), or inverted on the climbing image. NEB relaxes the bands of
// a batch with it, and IDPP interpolation relaxes the same band on its pair potential (docs/workflows.md).
import type { System } from '../data/index.js';
import { determinant3 } from '../data/index.js';

/** The band's spring constant (eV/Å²), tangent method and climbing image. */
export interface NEBSettings {
  readonly k: number;
  readonly method: 'aseneb' | 'improvedtangent';
  readonly climb: boolean;
}

/** A path's cell and pbc, for the minimum image of its springs. */
export interface Geometry {
  cell: number[][] | undefined;
  pbc: boolean[];
}

/** The cell and periodic directions of a path's first image. */
export function geometryOf(first: System): Geometry {
  const pbc = first.pbc === true ? [true, true, true] : Array.isArray(first.pbc) ? first.pbc.map(Boolean) : [false, false, false];
  return { cell: first.cell as number[][] | undefined, pbc };
}

/**
 * The NEB forces of one band's n images (flat, interior image by image), from the true forces and energies.
 * Image i starts at origin + i·3·atoms in the flat `positions` and `forces`; its energy is energies[first + i].
 */
export function bandForces(
  settings: NEBSettings,
  n: number,
  atoms: number,
  origin: number,
  first: number,
  positions: Float64Array,
  forces: Float64Array,
  energies: Float64Array,
  geometry: Geometry,
): Float64Array {
  const size = 3 * atoms;
  const at = (i: number): number => origin + 3 * atoms * i;
  const spring = (i: number): Float64Array => minimumImage(positions.subarray(at(i + 1), at(i + 1) + size), positions.subarray(at(i), at(i) + size), geometry);
  const out = new Float64Array(size * (n - 2));
  let imax = 1;
  for (let i = 1; i < n - 1; i++) if (energies[first + i]! > energies[first + imax]!) imax = i;
  const k = settings.k;
  let s1 = spring(0);
  for (let i = 1; i < n - 1; i++) {
    const s2 = spring(i);
    const f = forces.subarray(at(i), at(i) + size);
    const out_i = out.subarray(size * (i - 1), size * i);
    out_i.set(f);
    let tangent: Float64Array;
    const e = (j: number): number => energies[first + j]!;
    if (settings.method === 'aseneb') {
      tangent = i < imax ? s2 : i > imax ? s1 : s1.map((x, c) => x + s2[c]!);
    } else {
      if (e(i + 1) > e(i) && e(i) > e(i - 1)) tangent = Float64Array.from(s2);
      else if (e(i + 1) < e(i) && e(i) < e(i - 1)) tangent = Float64Array.from(s1);
      else {
        const up = Math.abs(e(i + 1) - e(i));
        const down = Math.abs(e(i - 1) - e(i));
        const [big, small] = [Math.max(up, down), Math.min(up, down)];
        tangent = e(i + 1) > e(i - 1) ? s2.map((x, c) => x * big + s1[c]! * small) : s2.map((x, c) => x * small + s1[c]! * big);
      }
      const norm = Math.sqrt(dot(tangent, tangent));
      tangent = tangent.map((x) => x / norm);
    }
    const along = dot(f, tangent);
    const t2 = dot(tangent, tangent);
    if (i === imax && settings.climb) {
      const scale = settings.method === 'aseneb' ? (2 * along) / t2 : 2 * along;
      for (let c = 0; c < size; c++) out_i[c]! -= scale * tangent[c]!;
    } else if (settings.method === 'aseneb') {
      // ASE: minus the true tangential force, minus (k s1 − k s2)·t, both along t/|t|² and subtracted one after
      // the other, rounded as ASE rounds them (the IDPP relaxation amplifies the last bit).
      const springs = dot(s1.map((x, c) => x * k - s2[c]! * k), tangent);
      for (let c = 0; c < size; c++) {
        const factor = tangent[c]! / t2;
        out_i[c]! -= along * factor;
        out_i[c]! -= springs * factor;
      }
    } else {
      const springs = Math.sqrt(dot(s2, s2)) * k - Math.sqrt(dot(s1, s1)) * k;
      for (let c = 0; c < size; c++) {
        out_i[c]! -= along * tangent[c]!;
        out_i[c]! += springs * tangent[c]!;
      }
    }
    s1 = s2;
  }
  return out;
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
}

/** b − a per atom, wrapped to the nearest image in the periodic directions (fractional rounding). */
function minimumImage(b: Float64Array, a: Float64Array, geometry: Geometry): Float64Array {
  const d = b.map((x, k) => x - a[k]!);
  const { cell, pbc } = geometry;
  if (cell === undefined || !pbc.some(Boolean)) return d;
  const inverse = invert(cell);
  for (let x = 0; x < d.length; x += 3) {
    const frac = [0, 1, 2].map((c) => d[x]! * inverse[0]![c]! + d[x + 1]! * inverse[1]![c]! + d[x + 2]! * inverse[2]![c]!);
    for (let c = 0; c < 3; c++) if (pbc[c]) frac[c]! -= Math.round(frac[c]!);
    for (let c = 0; c < 3; c++) d[x + c] = frac[0]! * cell[0]![c]! + frac[1]! * cell[1]![c]! + frac[2]! * cell[2]![c]!;
  }
  return d;
}

export function invert(m: number[][]): number[][] {
  const [a, b, c] = m as [number[], number[], number[]];
  const det = determinant3(m.flat());
  return [
    [(b[1]! * c[2]! - b[2]! * c[1]!) / det, (a[2]! * c[1]! - a[1]! * c[2]!) / det, (a[1]! * b[2]! - a[2]! * b[1]!) / det],
    [(b[2]! * c[0]! - b[0]! * c[2]!) / det, (a[0]! * c[2]! - a[2]! * c[0]!) / det, (a[2]! * b[0]! - a[0]! * b[2]!) / det],
    [(b[0]! * c[1]! - b[1]! * c[0]!) / det, (a[1]! * c[0]! - a[0]! * c[1]!) / det, (a[0]! * b[1]! - a[1]! * b[0]!) / det],
  ];
}

