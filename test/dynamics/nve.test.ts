import { describe, expect, it } from 'vitest';

import { EnergyDriftMonitorHook, initializeVelocities, VelocityVerlet } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, ljFcc } from './lj-systems.js';

// LAMMPS (Debian 29 Sep 2021) on the same input — fcc 0.8442, 10×10×10 cells (4,000 atoms), velocity
// create 1.44, lj/cut 2.5 without shift, neighbor 0.3 bin, dt 0.005, fix nve, 1,000 steps — printed
// TotEng −4.6139081 at step 0 and −4.6208582 at step 1000: a relative drift of 1.51e-3, with the largest
// excursion 2.02e-3 (step 200). Truncation without a shift dominates it, so our drift must be of the
// same size, not smaller by orders of magnitude.
const LAMMPS_RELATIVE_DRIFT = 1.51e-3;

describe('NVE: LJ liquid, dt = 0.005 τ, 1,000 steps', () => {
  it('total-energy drift is comparable to LAMMPS on the same input', async () => {
    const batch = ljBatch([ljFcc(10)]);
    initializeVelocities(batch, { temperature: 1.44, seed: 87287, exact: true });
    const drift = new EnergyDriftMonitorHook({ frequency: 100 });
    const nve = new VelocityVerlet({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }), dt: 0.005, hooks: [drift] });
    await nve.run(batch, { steps: 1001 });
    const e0 = drift.history[0].total[0] / batch.numAtoms;
    expect(e0).toBeCloseTo(-6.7733681 + 1.5 * 1.44 * (3999 / 4000), 3);
    const final = drift.relativeDrift()[0];
    expect(final).toBeLessThan(2 * LAMMPS_RELATIVE_DRIFT);
    expect(drift.maxRelativeDrift()).toBeLessThan(3 * LAMMPS_RELATIVE_DRIFT);
  });
});
