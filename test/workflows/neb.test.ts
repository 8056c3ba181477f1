// NEB against ASE's ase.neb.NEB (Debian's ASE 3.22, run here) with the same potential on the same path: a
// vacancy hop in a periodic Lennard-Jones fcc crystal, its five interior images interpolated linearly. The NEB
// forces of the interpolated band equal ASE's get_forces() for both methods, with and without a climbing
// image; the relaxed climbing-image band gives the saddle energy of ASE's NEB and of its DyNEB; several
// paths relax in one batch as each does alone; and bad images are typed errors before any force call.
//
// The image energies agree to 1e-6 eV only when both bands are converged to fmax 1e-6 eV/Å. At fmax 1e-3 they
// differed by up to 5e-3 eV, and not through any difference of method: hookmd's band follows ASE's to 1e-12 eV
// for its first hundred FIRE steps, after which FIRE amplifies the last bits of rounding (ASE's own result
// moves by 2.5e-3 eV when its initial positions move by 1e-14 Å), and where in the fmax ball a soft image stops
// then decides its energy (an image displaced along the band by fmax/k has its energy off by that times the
// energy's slope there). At fmax 1e-6 that ball is below 3e-7 eV for ASE against itself perturbed.
import { beforeAll, describe, expect, it } from 'vitest';

import { Batch, type System } from '../../lib/data/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { NEB, NEBStage, type NEBContext } from '../../lib/workflows/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { vacancyHopPython } from '../helpers/vacancy-hop.js';

const SCRIPT = `
import json, sys
from ase.calculators.lj import LennardJones
from ase.neb import NEB, DyNEB
from ase.optimize import FIRE
spec = json.load(sys.stdin)
${vacancyHopPython('1.5599')}out = {'initial': initial.positions.tolist(), 'final': final.positions.tolist(), 'cell': initial.cell.tolist(), 'forces': {}}
for method in ['aseneb', 'improvedtangent']:
    for climb in [False, True]:
        images = [initial] + [initial.copy() for _ in range(5)] + [final.copy()]
        for image in images:
            image.calc = LennardJones(sigma=1.0, epsilon=1.0, rc=2.5)
        neb = NEB(images, k=0.1, climb=climb, method=method)
        neb.interpolate()
        out['forces'][method + str(climb)] = neb.get_forces().ravel().tolist()
        if method == 'aseneb' and climb:
            FIRE(neb, logfile=None).run(fmax=spec['fmax'], steps=6000)
            out['energies'] = [image.get_potential_energy() for image in images]
# DyNEB (dynamic relaxation: images already below fmax stop moving) reaches the same climbing saddle.
images = [initial] + [initial.copy() for _ in range(5)] + [final.copy()]
for image in images:
    image.calc = LennardJones(sigma=1.0, epsilon=1.0, rc=2.5)
dyneb = DyNEB(images, k=0.1, climb=True, fmax=spec['dynebFmax'], scale_fmax=0.0)
dyneb.interpolate()
FIRE(dyneb, logfile=None).run(fmax=spec['dynebFmax'], steps=3000)
out['dyneb'] = [image.get_potential_energy() for image in images]
print(json.dumps(out))
`;

interface Reference {
  initial: number[][];
  final: number[][];
  cell: number[][];
  forces: Record<string, number[]>;
  energies: number[];
  dyneb: number[];
}

const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, shift: true });
const lattice = (reference: Reference, positions: number[][]): System => ({ symbols: positions.map(() => 'Ar'), positions, cell: reference.cell, pbc: true });

describe.skipIf(aseSkipReason !== '')(`NEB vs ASE's NEB ${aseSkipReason}`, () => {
  let reference: Reference;
  beforeAll(() => {
    reference = runAse<Reference>(SCRIPT, { fmax: 1e-6, dynebFmax: 1e-3 });
    // ASE's NEB relaxation to fmax 1e-6 (3,900 FIRE steps) and its DyNEB one take two minutes together.
  }, 400_000);
  const band = (options: { method: 'aseneb' | 'improvedtangent'; climb: boolean }): NEB =>
    new NEB({ model, images: [lattice(reference, reference.initial), lattice(reference, reference.final)], interpolate: 'linear', numImages: 7, ...options });

  it.each([
    ['aseneb', false],
    ['aseneb', true],
    ['improvedtangent', false],
    ['improvedtangent', true],
  ] as const)('%s, climb %s: the NEB forces of the interpolated band are ASE’s', async (method, climb) => {
    const [ours] = await band({ method, climb }).forces();
    const theirs = reference.forces[method + (climb ? 'True' : 'False')] as number[];
    expect(ours?.length).toBe(theirs.length);
    let worst = 0;
    theirs.forEach((f, k) => (worst = Math.max(worst, Math.abs((ours as Float64Array)[k]! - f))));
    expect(worst).toBeLessThan(1e-9);
  });

  it('the relaxed climbing-image band reaches ASE’s saddle energy, and two paths relax in one batch as each alone', async () => {
    const result = await band({ method: 'aseneb', climb: true }).run({ fmax: 1e-6, steps: 6000 });
    expect(result.converged).toBe(true);
    const saddle = Math.max(...reference.energies);
    expect(Math.abs(Math.max(...result.path) - saddle)).toBeLessThan(1e-6);
    expect(Math.abs(result.barrier - (saddle - (reference.energies[0] as number)))).toBeLessThan(1e-6);
    // ASE's DyNEB, which stops moving the images already converged, finds the same saddle.
    expect(Math.abs(Math.max(...result.path) - Math.max(...reference.dyneb))).toBeLessThan(1e-6);
    result.path.forEach((e, i) => expect(Math.abs(e - (reference.energies[i] as number)), `image ${i}`).toBeLessThan(1e-6));
    const reversed = [lattice(reference, reference.final), lattice(reference, reference.initial)];
    const both = await new NEB({ model, images: [[lattice(reference, reference.initial), lattice(reference, reference.final)], reversed], interpolate: 'linear', numImages: 7, climb: true }).run({ fmax: 1e-6, steps: 6000 });
    expect(both.paths).toHaveLength(2);
    expect(both.paths[0]?.energies).toEqual(result.path);
    expect(Math.abs((both.paths[1]?.barrier as number) - result.barrier)).toBeLessThan(1e-6);
  });
});

describe('NEB input checks', () => {
  const a: System = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [1.1, 0, 0]], pbc: false };
  const b: System = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 1.1, 0]], pbc: false };
  it.each([
    [{ images: [a, { ...b, positions: [[0, 0, 0]], symbols: ['Ar'] }], interpolate: 'linear', numImages: 5 }, /image 1 has 1 atoms, image 0 has 2/],
    [{ images: [a, { ...b, symbols: ['Ar', 'Kr'] }], interpolate: 'linear', numImages: 5 }, /another order/],
    [{ images: [a, b] }, /at least 3 images/],
    // The second atom of the final state wrapped across the 4 Å cell: it would move by −3.9 Å instead of 0.1 Å.
    [{ images: [{ ...a, cell: [[4, 0, 0], [0, 4, 0], [0, 0, 4]], pbc: true, positions: [[0, 0, 0], [3.9, 0, 0]] }, { ...a, cell: [[4, 0, 0], [0, 4, 0], [0, 0, 4]], pbc: true, positions: [[0, 0, 0], [0.0, 0, 0.1]] }], interpolate: 'linear', numImages: 5 }, /atom 1 moves by -0.975 of lattice vector 0 from image 0 to image 1: the images differ by a lattice vector/],
    [{ images: [a, b], interpolate: 'spline', numImages: 5 }, /interpolate must be 'linear' or 'idpp'/],
    [{ images: [a, b], interpolate: 'linear', numImages: 5, springConstant: 0 }, /springConstant must be a number > 0/],
    [{ images: [a, b], interpolate: 'linear', numImages: 5, k: 0.1 }, /UNKNOWN_OPTION|springConstant/],
  ])('%o is refused', (options, message) => {
    expect(() => new NEB({ model, ...(options as object) } as never)).toThrow(message);
  });
});

describe('NEB hooks', () => {
  it('read each image’s energy as ctx.scalars.energy, the energy the model gives that image alone', async () => {
    // Three argon atoms, the third swinging round the first two: every image has its own energy.
    const at = (angle: number): System => ({
      symbols: ['Ar', 'Ar', 'Ar'],
      positions: [[0, 0, 0], [1.12, 0, 0], [0.56 + 1.2 * Math.cos(angle), 1.2 * Math.sin(angle), 0.3]],
      pbc: false,
    });
    const seen: { positions: Float64Array; energy: Float64Array; pathOf: Int32Array }[] = [];
    const hook = {
      stage: NEBStage.AFTER_COMPUTE,
      frequency: 1,
      call: (ctx: NEBContext) => {
        seen.push({ positions: Float64Array.from(ctx.batch.read('positions')), energy: Float64Array.from(ctx.scalars.energy), pathOf: ctx.pathOf });
      },
    };
    await new NEB({ model, images: [at(0.6), at(2.4)], interpolate: 'linear', numImages: 5, hooks: [hook] }).run({ fmax: 1e-2, steps: 4 });
    expect(seen.length).toBeGreaterThan(0);
    for (const { positions, energy, pathOf } of seen) {
      expect(energy).toHaveLength(5);
      expect(Array.from(pathOf)).toEqual([0, 0, 0, 0, 0]);
      const alone = Array.from({ length: 5 }, (_, i) => {
        const rows = Array.from({ length: 3 }, (_, j) => Array.from(positions.subarray(9 * i + 3 * j, 9 * i + 3 * j + 3)));
        const batch = Batch.fromSystems([{ symbols: ['Ar', 'Ar', 'Ar'], positions: rows, pbc: false }]);
        model.compute(batch);
        return batch.read('energy')[0] as number;
      });
      alone.forEach((e, i) => expect(Math.abs((energy[i] as number) - e), `image ${i}`).toBeLessThan(1e-12));
      expect(new Set(alone.map((e) => e.toFixed(9))).size).toBeGreaterThan(2);
    }
  });
});
