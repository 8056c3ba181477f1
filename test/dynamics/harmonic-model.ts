// A JS test model with a closed-form answer: independent 3-D harmonic wells, E = ½k|x|², F = −kx.
import type { Batch } from '../../lib/data/index.js';
import type { EngineModel } from '../../lib/dynamics/index.js';

export function harmonicModel(k: number): EngineModel & { calls: number } {
  const model = {
    name: 'Harmonic',
    calls: 0,
    compute(batch: Batch): void {
      model.calls++;
      const x = batch.read('positions');
      const f = batch.forces;
      const e = batch.energy;
      const ptr = batch.read('ptr');
      for (let s = 0; s < batch.numSystems; s++) {
        let energy = 0;
        for (let i = 3 * ptr[s]; i < 3 * ptr[s + 1]; i++) {
          f[i] = -k * x[i];
          energy += 0.5 * k * x[i] * x[i];
        }
        e[s] = energy;
      }
    },
  };
  return model;
}
