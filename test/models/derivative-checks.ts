// The derivative check the many-body and ML potential tests share: on a periodic cell, the same atoms as a
// slab and as a cluster, the forces equal −∂E/∂x and (periodic) the stress equals (1/V) ∂E/∂ε, both by
// central differences of the model's own energy.
import { expect } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import type { Model } from '../../lib/models/index.js';
import { finiteDifferenceForces, finiteDifferenceStress } from './finite-difference.js';
import { maxAbs, maxDifference } from './reference.js';

export function expectForcesAndStressOfEnergy(model: Model, periodic: System): void {
  for (const s of [periodic, { ...periodic, pbc: [true, true, false] }, { ...periodic, cell: undefined, pbc: false }] as System[]) {
    const batch = Batch.fromSystems([s]);
    void model.compute(batch, { stress: s.pbc === true });
    const forces = Float64Array.from(batch.forces);
    const numeric = finiteDifferenceForces(model, batch, 1e-5);
    expect(maxDifference(forces, numeric)).toBeLessThan(2e-6 * Math.max(1, maxAbs(forces)));
    if (s.pbc === true) {
      const stress = Array.from(batch.stress.subarray(0, 9));
      const strained = finiteDifferenceStress(model, batch, 0, 1e-6);
      for (let k = 0; k < 9; k++) expect(Math.abs((stress[k] as number) - (strained[k] as number)), `stress[${k}]`).toBeLessThan(1e-7);
    }
  }
}
