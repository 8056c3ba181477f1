import { describe, expect, it } from 'vitest';

import { ConvergenceHook, DynamicsStage, FIRE, LBFGS, type DynamicsHookContext } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { LJ13_MINIMUM, ljBatch, perturbedLj13 } from './lj-systems.js';

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

// ASE's LBFGS (defaults: memory 100, maxstep 0.2, alpha 70, damping 1) with its LennardJones(rc=10) from
// the same start; it returns the steps it took and the final (unshifted) LJ energy.
const ASE_LBFGS = `
import json, sys
import numpy as np
from ase import Atoms
from ase.calculators.lj import LennardJones
from ase.optimize import LBFGS
cases = json.load(sys.stdin)
out = []
for case in cases:
    atoms = Atoms('Ar13', positions=np.array(case['positions']))
    atoms.calc = LennardJones(epsilon=1.0, sigma=1.0, rc=10.0)
    opt = LBFGS(atoms, logfile=None)
    opt.run(fmax=case['fmax'], steps=10000)
    f = atoms.get_forces()
    d = atoms.get_all_distances()
    iu = np.triu_indices(13, 1)
    r = d[iu]
    energy = float(np.sum(4 * (r ** -12 - r ** -6)))
    out.append({'steps': opt.nsteps, 'energy': energy, 'fmax': float(np.sqrt((f ** 2).sum(1)).max())})
print(json.dumps(out))
`;

const starts = [perturbedLj13(0.2), perturbedLj13(0.1, 1.9), perturbedLj13(0.15, 3.1)];

describe.skipIf(aseSkipReason !== '')(`LBFGS against ASE's ${aseSkipReason}`, () => {
  it('takes the steps ASE takes (±10%) on LJ13 inputs, and reaches the same minimum', () => {
    const fmax = 1e-4;
    const reference = runAse<Array<{ steps: number; energy: number }>>(ASE_LBFGS, starts.map((s) => ({ positions: s.positions, fmax })));
    // Each system relaxes on its own in one batch: the per-system histories must not mix.
    const batch = ljBatch(starts);
    const steps = new Map<number, number>();
    const lbfgs = new LBFGS({ model: model(), convergence: ConvergenceHook.fromFmax(fmax) });
    lbfgs.register({
      stage: DynamicsStage.ON_CONVERGE, frequency: 1, name: 'record',
      call: (ctx: DynamicsHookContext) => ctx.convergedMask?.forEach((newly, s) => { if (newly === 1) steps.set(s, ctx.stepCount + 1); }),
    });
    const result = lbfgs.runSync(batch, { steps: 10_000 });
    expect(Array.from(result.converged)).toEqual([1, 1, 1]);
    reference.forEach((ase, s) => {
      expect(Math.abs((steps.get(s) as number) - ase.steps)).toBeLessThanOrEqual(Math.max(1, 0.1 * ase.steps));
      expect(batch.read('energy')[s]).toBeCloseTo(ase.energy, 6);
    });
    expect(reference[0].energy).toBeCloseTo(LJ13_MINIMUM, 5);
  });
});

describe('LBFGS', () => {
  it('relaxes 32 LJ13 clusters in one batch to the global minimum', () => {
    const batch = ljBatch(Array.from({ length: 32 }, (_, i) => perturbedLj13(0.12, 0.2 * i)));
    const result = new LBFGS({ model: model(), convergence: ConvergenceHook.fromFmax(1e-5) }).runSync(batch, { steps: 2000 });
    expect(Array.from(result.converged).every((c) => c === 1)).toBe(true);
    for (const e of batch.read('energy')) expect(e).toBeCloseTo(LJ13_MINIMUM, 5);
  });

  it('needs fewer steps than FIRE on the same clusters', () => {
    const make = () => ljBatch([perturbedLj13(0.2)]);
    const lbfgs = new LBFGS({ model: model(), convergence: ConvergenceHook.fromFmax(1e-4) }).runSync(make(), { steps: 5000 });
    const fire = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-4) }).runSync(make(), { steps: 5000 });
    expect(lbfgs.steps).toBeLessThan(fire.steps);
  });

  it('keeps each system history from one run to the next (two runs of 12 steps are one of 24)', () => {
    const relax = (chunks: number[]): number[] => {
      const batch = ljBatch([perturbedLj13(0.2), perturbedLj13(0.1, 2)]);
      const lbfgs = new LBFGS({ model: model(), memory: 5 });
      for (const steps of chunks) lbfgs.runSync(batch, { steps });
      return Array.from(batch.read('positions'));
    };
    expect(relax([12, 12])).toEqual(relax([24]));
  });

  it('rejects bad parameters with typed errors', () => {
    expect(() => new LBFGS({ model: model(), memory: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new LBFGS({ model: model(), memory: 2.5 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new LBFGS({ model: model(), alpha: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new LBFGS({ model: model(), cellFilter: {} as never })).toThrow(expect.objectContaining({ code: 'INVALID_CELL_FILTER' }));
  });
});
