// NEB's optimisers against ASE running the same optimiser on the same NEB: `FIRE(neb)` and `LBFGS(neb)` of
// Debian's ASE 3.22 and `FIRE2(neb)` of a newer ASE (FIRE2 came in 3.23), each with its defaults, on the
// climbing-image vacancy hop of neb.test.ts in argon's units (ε = 0.0104 eV, σ = 3.4 Å). In reduced units
// (σ = 1 Å, ε = 1 eV) LBFGS's defaults (maxstep 0.2 Å, H0 = 1/70 Å²/eV) are far too bold, and ASE's own LBFGS
// band blows up there (its middle image at 1e16 eV after 150 steps), as hookmd's does. Each optimiser must
// take ASE's number of steps and give its image energies to 1e-9 eV, and two paths in one batch must each
// relax as they do alone.
import { beforeAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { NEB } from '../../lib/workflows/index.js';
import { aseSkipReason, newAseSkipReason, runAse, runNewAse } from '../helpers/ase.js';
import { vacancyHopPython } from '../helpers/vacancy-hop.js';

const SCRIPT = `
import json, sys
from ase.calculators.lj import LennardJones
try:
    from ase.mep import NEB
except ImportError:
    from ase.neb import NEB
from ase import optimize
spec = json.load(sys.stdin)
${vacancyHopPython('1.5599 * 3.4')}out = {'initial': initial.positions.tolist(), 'final': final.positions.tolist(), 'cell': initial.cell.tolist(), 'runs': {}}
for name in spec['optimizers']:
    images = [initial.copy() for _ in range(6)] + [final.copy()]
    for image in images:
        image.calc = LennardJones(sigma=3.4, epsilon=0.0104, rc=8.5)
    neb = NEB(images, k=0.1, climb=True, method='aseneb')
    neb.interpolate()
    opt = getattr(optimize, name)(neb, logfile=None)
    opt.run(fmax=spec['fmax'], steps=1000)
    out['runs'][name] = {'steps': opt.nsteps, 'energies': [image.get_potential_energy() for image in images]}
print(json.dumps(out))
`;

interface Reference {
  initial: number[][];
  final: number[][];
  cell: number[][];
  runs: Record<string, { steps: number; energies: number[] }>;
}

const FMAX = 1e-5;
const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true });
const system = (reference: Reference, positions: number[][]): System => ({ symbols: positions.map(() => 'Ar'), positions, cell: reference.cell, pbc: true });

/** The band of `reference`'s end points (forward, or reversed) under `optimizer`. */
function band(reference: Reference, optimizer: 'fire' | 'fire2' | 'lbfgs', paths: ('forward' | 'reverse')[] = ['forward']): NEB {
  const ends = { forward: [system(reference, reference.initial), system(reference, reference.final)], reverse: [system(reference, reference.final), system(reference, reference.initial)] };
  return new NEB({ model, images: paths.map((p) => ends[p]), interpolate: 'linear', numImages: 7, climb: true, optimizer });
}

/** The test of one optimiser against ASE's `name` in `reference()` (read once beforeAll has made it). */
function compare(ofReference: () => Reference, name: string, optimizer: 'fire' | 'fire2' | 'lbfgs'): void {
  it(`${optimizer}: ASE's ${name}(neb) step for step, and two paths in one batch as each alone`, async () => {
    const reference = ofReference();
    const theirs = reference.runs[name] as { steps: number; energies: number[] };
    const result = await band(reference, optimizer).run({ fmax: FMAX });
    expect(result.converged).toBe(true);
    expect(result.steps).toBe(theirs.steps);
    // 1e-9 eV, well inside the 1e-6 asked: the bands agree to rounding (1e-14 eV), so a step that differs shows
    // (FIRE2 kicking with the forces from before its inertia correction is off by 8e-7 eV here).
    result.path.forEach((e, i) => expect(Math.abs(e - (theirs.energies[i] as number)), `image ${i}`).toBeLessThan(1e-9));
    expect(Math.abs(result.barrier - (Math.max(...theirs.energies) - (theirs.energies[0] as number)))).toBeLessThan(1e-9);
    const reverse = await band(reference, optimizer, ['reverse']).run({ fmax: FMAX });
    const both = await band(reference, optimizer, ['forward', 'reverse']).run({ fmax: FMAX });
    expect(both.paths[0]?.energies).toEqual(result.path);
    expect(both.paths[1]?.energies).toEqual(reverse.path);
    expect(both.steps).toBe(Math.max(result.steps, reverse.steps));
  });
}

describe.skipIf(aseSkipReason !== '')(`NEB optimisers vs ASE 3.22's ${aseSkipReason}`, () => {
  let reference: Reference;
  beforeAll(() => {
    reference = runAse<Reference>(SCRIPT, { optimizers: ['FIRE', 'LBFGS'], fmax: FMAX });
  }, 120_000);
  compare(() => reference, 'FIRE', 'fire');
  compare(() => reference, 'LBFGS', 'lbfgs');
});

describe.skipIf(newAseSkipReason !== '')(`NEB's FIRE2 vs a newer ASE's ${newAseSkipReason}`, () => {
  let reference: Reference;
  beforeAll(() => {
    reference = runNewAse<Reference>(SCRIPT, { optimizers: ['FIRE2'], fmax: FMAX });
  }, 120_000);
  compare(() => reference, 'FIRE2', 'fire2');
});

describe('NEB optimizer option', () => {
  it('refuses an unknown optimiser before any force call', () => {
    const a: System = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [3.8, 0, 0]], pbc: false };
    const b: System = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 3.8, 0]], pbc: false };
    expect(() => new NEB({ model, images: [a, b], interpolate: 'linear', numImages: 5, optimizer: 'bfgs' as never })).toThrow(/optimizer must be 'fire', 'fire2' or 'lbfgs', got "bfgs"/);
  });
});
