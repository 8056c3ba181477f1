// The NEB energy profile hookmd view draws for a band file: two vacancy hops in LJ argon relaxed in one batch,
// written as `hookmd neb --out` writes a band, give one profile per path whose reaction coordinate, relative
// energies and fitted curve are ASE's NEBTools ones (ase.utils.forcecurve.fit_images on the same file), and
// whose barrier is the NEB result's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { System } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { loadViewData } from '../../lib/view/index.js';
import { isNebBand, nebProfiles } from '../../lib/view/neb-profile.js';
import { NEB, type NEBResult } from '../../lib/workflows/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { hop, vacancy } from '../helpers/vacancy-hop.js';

const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true });

let dir: string;
let result: NEBResult;
let band: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hookmd-neb-view-'));
  // Atoms 0 and 1 are nearest neighbours of the empty site: two paths of the same hop, told apart by info.path.
  result = await new NEB({ model, images: [[vacancy, hop(0)], [vacancy, hop(1)]], interpolate: 'idpp', numImages: 5, climb: true }).run({ fmax: 0.01 });
  band = join(dir, 'band.xyz');
  await writeExtxyz(band, result.paths.flatMap((path) => path.images));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface AseFit {
  path: number[];
  energies: number[];
  fit_path: number[];
  fit_energies: number[];
}

describe('NEB energy profile', () => {
  it('recognises a band file by its info.path and info.image, and not a plain trajectory', () => {
    const frames = readExtxyz(band);
    expect(isNebBand(frames)).toBe(true);
    expect(isNebBand(frames.map(({ info: _, ...frame }) => frame))).toBe(false);
    // A path must have its images in order.
    expect(isNebBand([frames[1] as System, frames[0] as System, ...frames.slice(2)])).toBe(false);
  });

  it.skipIf(aseSkipReason !== '')(`equals ASE NEBTools' fit_images for each path; the barrier is result.barrier ${aseSkipReason}`, async () => {
    const ase = runAse<AseFit[]>(`
import json, sys
from ase.io import read
from ase.utils.forcecurve import fit_images
images = read(json.load(sys.stdin), ':')
paths = sorted(set(a.info['path'] for a in images))
fits = [fit_images([a for a in images if a.info['path'] == p]) for p in paths]
print(json.dumps([{k: [float(x) for x in getattr(f, k)] for k in ('path', 'energies', 'fit_path', 'fit_energies')} for f in fits]))
`, band);
    const profiles = nebProfiles(readExtxyz(band));
    expect(profiles).toHaveLength(2);
    profiles.forEach((profile, p) => {
      const fit = ase[p] as AseFit;
      expect(profile.distance).toEqual(fit.path.map((x) => expect.closeTo(x, 10)));
      expect(profile.energies).toEqual(fit.energies.map((x) => expect.closeTo(x, 10)));
      expect(profile.fitDistance).toEqual(fit.fit_path.map((x) => expect.closeTo(x, 10)));
      expect(profile.fitEnergies).toEqual(fit.fit_energies.map((x) => expect.closeTo(x, 10)));
      expect(profile.barrier).toBe(result.paths[p]?.barrier);
      expect(profile.saddleIndex).toBe(result.paths[p]?.saddleIndex);
    });
    const data = await loadViewData([band]);
    // One trajectory through the images of each path, and one plot with the images and the fit of each.
    expect(data.systems.map((s) => [s.label, s.frames.length])).toEqual([['band.xyz path 0', 5], ['band.xyz path 1', 5]]);
    const [plot] = data.plots;
    expect(plot?.series.map((s) => s.label)).toEqual(['path 0', 'path 0 fit', 'path 1', 'path 1 fit']);
    expect(plot?.series[2]?.y).toEqual(profiles[1]?.energies);
    expect(plot?.notes?.[0]).toContain(`barrier ${result.paths[0]?.barrier.toFixed(6)} eV at image ${result.paths[0]?.saddleIndex}`);
    // Each saddle is marked with its barrier, at its point of the profile.
    expect(plot?.marks).toEqual(profiles.map((p) => ({ x: p.distance[p.saddleIndex], y: result.paths[p.path]?.barrier, label: `${result.paths[p.path]?.barrier.toFixed(4)} eV` })));
  });
});
