// Inputs shared by the dynamics tests: LJ13 clusters and the LAMMPS bench/in.lj lattice, in lj units.
import { Batch, bulk, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { icosahedron13 } from '../../lib/cli/argon.js';

/** The LJ13 global minimum (Wales & Doye 1997), in ε. */
export const LJ13_MINIMUM = -44.326801;

/** An LJ13 icosahedron (nearest-neighbour distance 1.1σ) displaced by a deterministic pattern of amplitude `amplitude`. */
export function perturbedLj13(amplitude: number, phase = 0.7): System {
  const positions = icosahedron13(1.1).map((p, i) => p.map((x, c) => x + amplitude * Math.sin(1.3 * i + 2.1 * c + phase)));
  return { symbols: Array(13).fill('Ar'), positions };
}

/** fcc at ρ = 0.8442 σ⁻³ with n×n×n conventional cells (4n³ atoms), as LAMMPS's `lattice fcc 0.8442`. */
export function ljFcc(n: number): System {
  const a = (4 / 0.8442) ** (1 / 3);
  return repeat(bulk('Ar', 'fcc', { a, cubic: true }), [n, n, n]);
}

export function ljBatch(systems: System[]): Batch {
  return Batch.fromSystems(systems, { units: 'lj' });
}
