// FixCom (issue 46, item 5): each system's centre of mass held as an engine constraint. The constrained
// forces equal ASE's FixCom.adjust_forces on the same raw forces and masses; an MD run started with a net
// momentum keeps its centre of mass and has none; the temperature counts 3N − 3, as ASE's get_temperature
// with FixCom.
import { describe, expect, it } from 'vitest';

import { Batch, type System } from '../../lib/data/index.js';
import { FIRE, FixCom, initializeVelocities, temperatures, VelocityVerlet } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';

// An Ar/Kr cluster of unequal masses, where ASE's mass-weighted λ differs from a plain net-force removal.
const cluster = (): System => ({
  symbols: Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? 'Kr' : 'Ar')),
  positions: Array.from({ length: 12 }, (_, i) => [3.9 * Math.cos(1.3 * i), 3.7 * Math.sin(0.9 * i), 1.8 * (i % 4)]),
});
const lj = (): LennardJones => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });
const centre = (batch: Batch): number[] => {
  const x = batch.read('positions');
  const m = batch.read('masses');
  const total = m.reduce((a, b) => a + b, 0);
  return [0, 1, 2].map((c) => Array.from(m, (mi, i) => mi * x[3 * i + c]).reduce((a, b) => a + b, 0) / total);
};

describe('FixCom', () => {
  it.skipIf(aseSkipReason !== '')(`constrains the forces as ASE's FixCom.adjust_forces ${aseSkipReason}`, async () => {
    const batch = Batch.fromSystems([cluster()]);
    await new FIRE({ model: lj(), constraints: [new FixCom()] }).run(batch, { steps: 3 });
    const raw = Batch.fromSystems([{ ...batch.toSystems()[0], energy: undefined, forces: undefined, stress: undefined }]);
    lj().compute(raw);
    const ase = runAse<number[]>(`
import json, sys
import numpy as np
from ase import Atoms
from ase.constraints import FixCom
case = json.load(sys.stdin)
atoms = Atoms(case['symbols'], positions=np.zeros((len(case['symbols']), 3)), masses=case['masses'])
forces = np.array(case['forces']).reshape(-1, 3)
FixCom().adjust_forces(atoms, forces)
print(json.dumps(forces.ravel().tolist()))
`, { symbols: cluster().symbols, masses: Array.from(batch.read('masses')), forces: Array.from(raw.read('forces')) });
    const forces = batch.read('forces');
    const scale = Math.max(...ase.map(Math.abs));
    ase.forEach((f, k) => expect(Math.abs(forces[k] - f)).toBeLessThan(1e-12 * scale));
    const raw3 = raw.read('forces');
    expect(Math.max(...ase.map((f, k) => Math.abs(f - raw3[k])))).toBeGreaterThan(1e-3 * scale);
  });

  it('keeps the centre of mass of an MD run started with a net momentum, and leaves it no momentum', async () => {
    const run = async (constraints: FixCom[]): Promise<{ start: number[]; end: number[]; momentum: number[] }> => {
      const batch = Batch.fromSystems([cluster()]);
      initializeVelocities(batch, { temperature: 60, seed: 3, removeDrift: false });
      const start = centre(batch);
      await new VelocityVerlet({ model: lj(), dt: 2, constraints }).run(batch, { steps: 500 });
      const v = batch.read('velocities');
      const m = batch.read('masses');
      return { start, end: centre(batch), momentum: [0, 1, 2].map((c) => Array.from(m, (mi, i) => mi * v[3 * i + c]).reduce((a, b) => a + b, 0)) };
    };
    const free = await run([]);
    expect(Math.hypot(...free.end.map((x, c) => x - free.start[c]))).toBeGreaterThan(0.01);
    const held = await run([new FixCom()]);
    held.end.forEach((x, c) => expect(Math.abs(x - held.start[c])).toBeLessThan(1e-10));
    held.momentum.forEach((p) => expect(Math.abs(p)).toBeLessThan(1e-10));
  });

  it.skipIf(aseSkipReason !== '')(`counts 3N − 3 degrees of freedom, as ASE's get_temperature with FixCom ${aseSkipReason}`, () => {
    const batch = Batch.fromSystems([cluster()]);
    initializeVelocities(batch, { temperature: 60, seed: 8 });
    const ase = runAse<number>(`
import json, sys
import numpy as np
from ase import Atoms
from ase.constraints import FixCom
from ase.units import fs
case = json.load(sys.stdin)
atoms = Atoms(case['symbols'], positions=np.zeros((len(case['symbols']), 3)), masses=case['masses'])
atoms.set_velocities(np.array(case['velocities']).reshape(-1, 3) / fs)
atoms.set_constraint(FixCom())
print(json.dumps(atoms.get_temperature()))
`, { symbols: cluster().symbols, masses: Array.from(batch.read('masses')), velocities: Array.from(batch.read('velocities')) });
    expect(Math.abs(temperatures(batch)[0] / ase - 1)).toBeLessThan(3e-6);
  });
});
