// Argon-like Lennard-Jones parameters (Rahman 1964; the classic ASE/LAMMPS tutorial values), in metal units.

/** ε in eV. */
export const ARGON_EPSILON = 0.0104;
/** σ in Å. */
export const ARGON_SIGMA = 3.4;
/** The usual 2.5σ cutoff in Å. */
export const ARGON_CUTOFF: number = 2.5 * ARGON_SIGMA;

/** The 13-atom Mackay icosahedron (centre + 12 vertices) with nearest-neighbour distance `d` (Å). */
export function icosahedron13(d: number): number[][] {
  const phi = (1 + Math.sqrt(5)) / 2;
  const vertices: number[][] = [];
  for (const a of [-1, 1]) {
    for (const b of [-phi, phi]) {
      vertices.push([0, a, b], [a, b, 0], [b, 0, a]);
    }
  }
  // Centre-to-vertex distance of the unit-edge icosahedron is sqrt(1 + φ²)/2 · edge; scale the radius to d.
  const radius = Math.hypot(1, phi);
  return [[0, 0, 0], ...vertices.map((v) => v.map((c) => (c * d) / radius))];
}
