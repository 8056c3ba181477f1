// The rows of a SNAP fit, what LAMMPS's `compute snap` gives FitSNAP: per structure the bispectrum
// components summed over its atoms (energy), minus their derivatives with respect to each atom's position
// (forces) and their contribution to the stress, one column per coefficient of the `.snapcoeff` file
// (per element β₀, β (, α's upper triangle with quadraticflag)).
//
// SNAP's energy, forces and stress are linear in its coefficients, so column j is exactly the energy, forces
// and stress of the potential whose coefficient j is 1 and every other 0: the native SNAP (the bispectrum of
// native/cpp/math/SnapBispectrum.h and its reverse-mode neighbour gradient) computes it for every structure
// of one batch at once. A quadratic column α_kl is then Σ B_k B_l (½ B_k² for k = l), in the very order
// the potential reads α, so a fitted model evaluates as it was fitted. The β₀ column is counted: the atoms
// of the element, with no force or stress. One batch compute per column: 30 for the linear 2J = 6 SNAP of
// Mo, 495 for its quadratic form. Each column's native potential keeps its neighbour list until the
// garbage collector frees it, which sets the peak memory of a fit (bench/RESULTS.md, "fitSnap").
import { atomicNumber, Batch, type System } from '../data/index.js';
import { SNAP } from '../models/snap.js';
import { snapCoefficientCount, type SnapParameters } from '../models/snap-file.js';

/** One element of the descriptor, as a `.snapcoeff` block header gives it. */
export interface SnapDescriptorElement {
  readonly radius: number;
  readonly weight: number;
}

/** The columns of the fit, each over every structure's rows (column-major). */
export interface SnapDescriptorRows {
  /** Coefficients per element (β₀ included), the `ncoeff` of the `.snapcoeff` file. */
  readonly perElement: number;
  /** Per column: each structure's total energy contribution (eV per unit coefficient). */
  readonly energy: readonly Float64Array[];
  /** Per column: N×3 force contributions, −∂E/∂r (empty arrays without `forces`). */
  readonly forces: readonly Float64Array[];
  /** Per column: B×9 stress contributions (σ = −W/V, ASE's sign; empty arrays without `stress`). */
  readonly stress: readonly Float64Array[];
}

/**
 * The descriptor rows of `systems` (checked: every element among `elements`) for checked `parameters`;
 * columns in the `.snapcoeff` order, element by element in `elements`' order.
 *
 * @example
 * const rows = snapDescriptorRows([bcc], parameters, { Mo: { radius: 0.5, weight: 1 } }, { forces: true, stress: false });
 * rows.energy[1][0]; // Σ_i B_1 of the structure's atoms
 */
export function snapDescriptorRows(
  systems: readonly System[],
  parameters: SnapParameters,
  elements: Readonly<Record<string, SnapDescriptorElement>>,
  want: { forces: boolean; stress: boolean },
): SnapDescriptorRows {
  const names = Object.keys(elements);
  const perElement = snapCoefficientCount(parameters, names.length);
  const batch = Batch.fromSystems(systems.map(({ energy: _e, forces: _f, stress: _s, ...structure }) => structure));
  const numSystems = batch.numSystems;
  const symbols = batch.read('atomicNumbers');
  const systemIndex = batch.read('systemIndex');
  const energy: Float64Array[] = [];
  const forces: Float64Array[] = [];
  const stress: Float64Array[] = [];
  const forceLength = want.forces ? 3 * batch.numAtoms : 0;
  const stressLength = want.stress ? 9 * numSystems : 0;
  names.forEach((name, e) => {
    const z = atomicNumber(name);
    const counts = new Float64Array(numSystems);
    symbols.forEach((number, atom) => {
      if (number === z) counts[systemIndex[atom] as number] += 1;
    });
    energy.push(counts);
    forces.push(new Float64Array(forceLength));
    stress.push(new Float64Array(stressLength));
    for (let k = 1; k < perElement; k++) {
      const coefficients = Object.fromEntries(
        names.map((other, f) => {
          const block = new Array<number>(perElement).fill(0);
          if (f === e) block[k] = 1;
          return [other, { ...(elements[other] as SnapDescriptorElement), coefficients: block }];
        }),
      );
      // Skin 0: each column's potential builds its own neighbour list once, and a list of the cutoff alone
      // holds a third of the pairs (and of the memory) a 2 Å skin would add for Mo.
      new SNAP({ coefficients, parameters, skin: 0 }).compute(batch, { forces: want.forces, stress: want.stress });
      energy.push(Float64Array.from(batch.read('energy')));
      forces.push(want.forces ? Float64Array.from(batch.read('forces')) : new Float64Array(0));
      stress.push(want.stress ? Float64Array.from(batch.read('stress')) : new Float64Array(0));
    }
  });
  return { perElement, energy, forces, stress };
}
