// Fixed atoms in NEB images against ASE 3.22's NEB with a FixAtoms on every image: the vacancy hop of
// neb-optimizers.test.ts (argon's units) with the upper half of the crystal fixed, as a slab's bottom layers
// would be. The fixed atoms come from each image's info.fixed (what a POSCAR's selective dynamics gives) or
// from `constraints: [FixAtoms]`, with the same result; the relaxed band's energies are ASE's to 1e-9 eV with
// its step count (FIRE and LBFGS), the IDPP band is ASE's to 1e-6 Å, and every fixed atom of every image ends
// where it began, to the bit. Images that disagree about which atoms are fixed, or where, are typed errors.
import { beforeAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { FixAtoms } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { NEB, type NEBResult } from '../../lib/workflows/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { vacancyHopPython } from '../helpers/vacancy-hop.js';

const SCRIPT = `
import json, sys
from ase.calculators.lj import LennardJones
from ase.constraints import FixAtoms
from ase.neb import NEB
from ase.optimize import FIRE, LBFGS
spec = json.load(sys.stdin)
${vacancyHopPython('1.5599 * 3.4')}fixed = [i for i in range(len(initial)) if initial.positions[i][2] >= 0.5 * initial.cell[2][2] and i != j]
initial.set_constraint(FixAtoms(indices=fixed))
final.set_constraint(FixAtoms(indices=fixed))
out = {'initial': initial.positions.tolist(), 'final': final.positions.tolist(), 'cell': initial.cell.tolist(), 'fixed': fixed, 'runs': {}}
for name, optimizer in [('fire', FIRE), ('lbfgs', LBFGS)]:
    images = [initial.copy() for _ in range(6)] + [final.copy()]
    for image in images:
        image.calc = LennardJones(sigma=3.4, epsilon=0.0104, rc=8.5)
    neb = NEB(images, k=0.1, climb=True)
    neb.interpolate()
    opt = optimizer(neb, logfile=None)
    opt.run(fmax=spec['fmax'], steps=1000)
    out['runs'][name] = {'steps': opt.nsteps, 'energies': [image.get_potential_energy() for image in images]}
images = [initial.copy() for _ in range(6)] + [final.copy()]
NEB(images, k=0.1, climb=True).interpolate('idpp')
out['idpp'] = [image.positions.tolist() for image in images]
print(json.dumps(out))
`;

interface Reference {
  initial: number[][];
  final: number[][];
  cell: number[][];
  fixed: number[];
  runs: Record<'fire' | 'lbfgs', { steps: number; energies: number[] }>;
  idpp: number[][][];
}

const FMAX = 1e-5;
const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true });

describe.skipIf(aseSkipReason !== '')(`NEB with fixed atoms vs ASE's NEB with FixAtoms ${aseSkipReason}`, () => {
  let reference: Reference;
  beforeAll(() => {
    reference = runAse<Reference>(SCRIPT, { fmax: FMAX });
  }, 120_000);
  const image = (positions: number[][], marked: boolean): System => ({
    symbols: positions.map(() => 'Ar'),
    positions,
    cell: reference.cell,
    pbc: true,
    ...(marked ? { info: { fixed: positions.map((_, a) => reference.fixed.includes(a)) } } : {}),
  });
  const ends = (marked: boolean): System[] => [image(reference.initial, marked), image(reference.final, marked)];
  const fixedStay = (result: NEBResult): void => {
    for (const relaxed of result.paths[0]?.images ?? []) {
      const rows = relaxed.positions as number[][];
      for (const a of reference.fixed) expect(rows[a], `atom ${a}`).toEqual(reference.initial[a]);
    }
  };

  it.each(['fire', 'lbfgs'] as const)('%s: info.fixed and constraints: [FixAtoms] relax the band as ASE’s, the fixed atoms unmoved', async (optimizer) => {
    const theirs = reference.runs[optimizer];
    const marked = await new NEB({ model, images: ends(true), interpolate: 'linear', numImages: 7, climb: true, optimizer }).run({ fmax: FMAX });
    expect(marked.converged).toBe(true);
    expect(marked.steps).toBe(theirs.steps);
    marked.path.forEach((e, i) => expect(Math.abs(e - (theirs.energies[i] as number)), `image ${i}`).toBeLessThan(1e-9));
    fixedStay(marked);
    const constrained = await new NEB({ model, images: ends(false), interpolate: 'linear', numImages: 7, climb: true, optimizer, constraints: [new FixAtoms({ indices: reference.fixed })] }).run({ fmax: FMAX });
    expect(constrained.path).toEqual(marked.path);
    fixedStay(constrained);
  });

  it('the IDPP band leaves the fixed atoms where they are, as ASE’s', async () => {
    const result = await new NEB({ model, images: ends(true), interpolate: 'idpp', numImages: 7, climb: true }).run({ steps: 0 });
    let worst = 0;
    result.paths[0]?.images.forEach((relaxed, i) => (relaxed.positions as number[][]).forEach((r, a) => r.forEach((x, c) => (worst = Math.max(worst, Math.abs(x - reference.idpp[i]![a]![c]!))))));
    expect(worst).toBeLessThan(1e-6);
    fixedStay(result);
  });

  it('refuses end points that fix other atoms, a fixed atom that moves between images, and a FixAtoms beyond the atoms', () => {
    const [a, b] = ends(true) as [System, System];
    const unfixed = { ...b, info: { fixed: (b.info?.fixed as boolean[]).map((f, i) => (i === reference.fixed[0] ? false : f)) } };
    expect(() => new NEB({ model, images: [a, unfixed], interpolate: 'linear', numImages: 5 })).toThrow(new RegExp(`image 1 does not fix atom ${reference.fixed[0]} and image 0 does \\(info.fixed\\)`));
    const shifted = { ...b, positions: (b.positions as number[][]).map((r, i) => (i === reference.fixed[0] ? [r[0]! + 0.1, r[1]!, r[2]!] : r)) };
    expect(() => new NEB({ model, images: [a, shifted], interpolate: 'linear', numImages: 5 })).toThrow(new RegExp(`fixed atom ${reference.fixed[0]} is at .* in image 1 but at .* in image 0`));
    expect(() => new NEB({ model, images: ends(false), interpolate: 'linear', numImages: 5, constraints: [new FixAtoms({ indices: [99] })] })).toThrow(/atom index 99 is outside/);
    expect(() => new NEB({ model, images: ends(false), interpolate: 'linear', numImages: 5, constraints: [{ indices: [0] }] as never })).toThrow(/constraints must be an array of FixAtoms/);
  });
});
