// The total energy of system 0 of a batch in metal units, for the NVE conservation tests: the model's
// potential energy at the current positions plus ½ Σ m v² (amu Å²/fs², converted to eV).
import type { Batch } from '../../lib/data/index.js';
import type { Model } from '../../lib/models/index.js';

/** eV per amu Å²/fs² (1 amu Å²/fs² = 103.6427 eV). */
const AMU_A2_PER_FS2_IN_EV = 1 / 9.648533212e-3;

export function totalEnergy(model: Model, batch: Batch): number {
  void model.compute(batch);
  let kinetic = 0;
  const v = batch.read('velocities');
  const m = batch.read('masses');
  for (let i = 0; i < batch.numAtoms; i++) kinetic += 0.5 * (m[i] as number) * ((v[3 * i] as number) ** 2 + (v[3 * i + 1] as number) ** 2 + (v[3 * i + 2] as number) ** 2);
  return (batch.energy[0] as number) + kinetic * AMU_A2_PER_FS2_IN_EV;
}
