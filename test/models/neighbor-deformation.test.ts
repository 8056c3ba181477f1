// A periodic cell that deforms between computes (NPT, a cell filter) keeps its neighbor list while the skin
// allows, with the list's translations following the cell; forces, energy and stress must equal those of a
// list built afresh on the deformed cell.
import { describe, expect, it } from 'vitest';

import { Batch, rattle } from '../../lib/data/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljFcc } from '../dynamics/lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

/** Applies x ← x·T to the positions and cell rows of every system (T row-major). */
function deform(batch: Batch, t: number[]): void {
  const apply = (values: Float64Array): void => {
    for (let k = 0; k < values.length; k += 3) {
      const [x, y, z] = [values[k], values[k + 1], values[k + 2]];
      for (let c = 0; c < 3; c++) values[k + c] = x * t[c] + y * t[3 + c] + z * t[6 + c];
    }
  };
  apply(batch.positions);
  apply(batch.cell);
}

function fresh(batch: Batch): Batch {
  const copy = Batch.fromSystems(batch.toSystems(), { units: 'lj' });
  lj().compute(copy, { stress: true });
  return copy;
}

describe('neighbor lists under a deforming cell', () => {
  it.each([
    ['a small isotropic scaling', [1.004, 0, 0, 0, 1.004, 0, 0, 0, 1.004], 1],
    ['a small shear and stretch', [1.003, 0.004, 0, 0, 0.998, 0, 0.002, 0, 1.001], 1],
    ['an affine deformation within the skin bound', [1.08, 0, 0, 0, 0.95, 0, 0, 0, 1.02], 1],
    ['a compression beyond it', [0.85, 0, 0, 0, 1, 0, 0, 0, 1], 2],
  ])('%s gives the forces, energy and stress of a fresh list (builds: %s)', (_, t, builds) => {
    const batch = Batch.fromSystems([rattle(ljFcc(4), 0.04, 3)], { units: 'lj' });
    const model = lj();
    model.compute(batch, { stress: true });
    deform(batch, t as number[]);
    model.compute(batch, { stress: true });
    // cuda rebuilds on any change of the cell (docs/cuda.md, "Rebuild rule"); the CPU's list (mirror's too) stays.
    expect(model.neighborStats().builds).toBe(batch.backend === 'cuda' ? 2 : builds);
    const reference = fresh(batch);
    const forces = batch.read('forces');
    reference.read('forces').forEach((f, k) => expect(forces[k]).toBeCloseTo(f, 11));
    expect(batch.read('energy')[0]).toBeCloseTo(reference.read('energy')[0], 10);
    const stress = batch.read('stress');
    reference.read('stress').forEach((s, k) => expect(stress[k]).toBeCloseTo(s, 12));
  });

  it('many small deformations with atoms moving stay exact, and rebuild once an atom leaves its carried position by the bound', () => {
    const batch = Batch.fromSystems([rattle(ljFcc(4), 0.04, 5)], { units: 'lj' });
    const model = lj();
    model.compute(batch);
    for (let step = 0; step < 20; step++) {
      deform(batch, [1.002, 0, 0, 0, 1.002, 0, 0, 0, 1.002]);
      batch.positions[3 * (step % 7)] += 0.04;
      model.compute(batch, { stress: true });
      const reference = fresh(batch);
      const forces = batch.read('forces');
      reference.read('forces').forEach((f, k) => expect(forces[k]).toBeCloseTo(f, 11));
      const stress = batch.read('stress');
      reference.read('stress').forEach((v, k) => expect(stress[k]).toBeCloseTo(v, 12));
    }
    const builds = model.neighborStats().builds;
    if (batch.backend === 'cuda') {
      expect(builds).toBe(21);
    } else {
      expect(builds).toBeGreaterThan(1);
      expect(builds).toBeLessThan(20);
    }
  });
});
