// IDPP interpolation against ASE 3.22's `NEB(images, ...).interpolate('idpp')` (its MDMin, fmax 0.1, 100 steps,
// on the NEB forces of the band's own method and climbing image) on the same end points: a vacancy hop in a
// periodic fcc crystal, and a triatomic molecule given a quarter turn, where linear interpolation pulls the
// outer atoms in towards the middle one. Every interior position must be ASE's to 1e-6 Å.
import { beforeAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { NEB } from '../../lib/workflows/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { vacancyHopPython } from '../helpers/vacancy-hop.js';

const SCRIPT = `
import json, sys
from ase import Atoms
from ase.neb import NEB
${vacancyHopPython('1.5599')}molecule = Atoms('ArArAr', positions=[[-1.1, 0.2, 0], [0, 0, 0], [1.1, -0.1, 0.3]])
# A quarter turn (bent a little): turned end over end, ASE's own relaxation runs away (atoms 1000 Å out after
# its 100 steps), and the last bits of rounding decide where.
turned = Atoms('ArArAr', positions=[[0.15, -1.1, 0.1], [0.02, 0.03, 0], [-0.2, 1.05, 0.25]])
out = {'paths': {}}
for name, (a, b) in {'hop': (initial, final), 'molecule': (molecule, turned)}.items():
    out['paths'][name] = {'initial': a.positions.tolist(), 'final': b.positions.tolist(), 'cell': a.cell.tolist(), 'pbc': bool(a.pbc.any()), 'bands': {}}
    for method in ['aseneb', 'improvedtangent']:
        for climb in [False, True]:
            images = [a.copy()] + [a.copy() for _ in range(5)] + [b.copy()]
            neb = NEB(images, k=0.1, climb=climb, method=method)
            neb.interpolate('idpp')
            out['paths'][name]['bands'][method + str(climb)] = [image.positions.tolist() for image in images]
print(json.dumps(out))
`;

interface Path {
  initial: number[][];
  final: number[][];
  cell: number[][];
  pbc: boolean;
  bands: Record<string, number[][][]>;
}

const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, shift: true });

describe.skipIf(aseSkipReason !== '')(`IDPP interpolation vs ASE's ${aseSkipReason}`, () => {
  let paths: Record<string, Path>;
  beforeAll(() => {
    paths = runAse<{ paths: Record<string, Path> }>(SCRIPT).paths;
  });
  const system = (path: Path, positions: number[][]): System => ({
    symbols: positions.map(() => 'Ar'),
    positions,
    pbc: path.pbc,
    ...(path.pbc ? { cell: path.cell } : {}),
  });
  const band = async (path: Path, interpolate: 'linear' | 'idpp', method: 'aseneb' | 'improvedtangent', climb: boolean): Promise<number[][][]> => {
    const neb = new NEB({ model, images: [system(path, path.initial), system(path, path.final)], interpolate, numImages: 7, method, climb });
    // The interpolated band is what run() starts from: zero steps returns it unchanged.
    const { paths: [one] } = await neb.run({ steps: 0 });
    return (one?.images ?? []).map((image) => image.positions as number[][]);
  };

  it.each([
    ['hop', 'aseneb', false],
    ['hop', 'aseneb', true],
    ['hop', 'improvedtangent', false],
    ['hop', 'improvedtangent', true],
    ['molecule', 'aseneb', false],
    ['molecule', 'aseneb', true],
    ['molecule', 'improvedtangent', false],
    ['molecule', 'improvedtangent', true],
  ] as const)('%s, %s, climb %s: every interior position is ASE’s to 1e-6 Å', async (name, method, climb) => {
    const path = paths[name] as Path;
    const theirs = path.bands[method + (climb ? 'True' : 'False')] as number[][][];
    const ours = await band(path, 'idpp', method, climb);
    const linear = await band(path, 'linear', method, climb);
    let worst = 0;
    let moved = 0;
    theirs.forEach((image, i) =>
      image.forEach((atom, a) =>
        atom.forEach((x, c) => {
          worst = Math.max(worst, Math.abs((ours[i] as number[][])[a]![c]! - x));
          moved = Math.max(moved, Math.abs((linear[i] as number[][])[a]![c]! - x));
        }),
      ),
    );
    expect(worst).toBeLessThan(1e-6);
    // IDPP moved the band away from the straight line, so the comparison above is not linear against linear.
    expect(moved).toBeGreaterThan(1e-3);
  });
});
