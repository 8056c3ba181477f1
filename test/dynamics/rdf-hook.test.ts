// Issue 39, item 37: RdfHook's g(r) of each system equals ASE 3.22's get_rdf (ase.ga.utilities) of the same
// frame, for a cubic and a triclinic periodic cell in one batch; over a run it is the average of its frames.
import { describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { Langevin, RdfHook, radialDistribution } from '../../lib/dynamics/index.js';
import { every } from '../../lib/hooks/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';

const ASE_RDF = `
import json, sys
import numpy as np
from ase import Atoms
from ase.ga.utilities import get_rdf
given = json.load(sys.stdin)
out = []
for s in given['systems']:
    atoms = Atoms(symbols=s['symbols'], positions=s['positions'], cell=s['cell'], pbc=True)
    g, r = get_rdf(atoms, given['rmax'], given['nbins'])
    out.append({'g': g.tolist(), 'r': r.tolist()})
print(json.dumps(out))
`;

const cubic = rattle(repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [3, 3, 3]), 0.2, 1);
// The primitive fcc cell, 6×6×6: 60° between its vectors, thick enough for rmax = 6.
const triclinic = rattle(repeat(bulk('Ar', 'fcc', { a: 5.26 }), [6, 6, 6]), 0.2, 2);
const flat = (s: System): System => ({ symbols: s.symbols, positions: s.positions, cell: s.cell, pbc: true });

describe.skipIf(aseSkipReason !== '')(`radialDistribution against ASE's get_rdf ${aseSkipReason}`, () => {
  it('equals it bin for bin in a cubic and a triclinic cell', () => {
    const batch = Batch.fromSystems([cubic, triclinic]);
    const systems = batch.toSystems().map(flat);
    const ase = runAse<Array<{ g: number[]; r: number[] }>>(ASE_RDF, { systems, rmax: 6, nbins: 60 });
    ase.forEach((reference, s) => {
      const { r, g } = radialDistribution(batch, s, 6, 60);
      Array.from(r).forEach((value, k) => expect(value).toBeCloseTo(reference.r[k], 12));
      Array.from(g).forEach((value, k) => expect(Math.abs(value - reference.g[k])).toBeLessThan(1e-10));
      expect(Math.max(...g)).toBeGreaterThan(2);
    });
  });
});

describe('RdfHook', () => {
  it('averages each system over the states a log records, keyed by systemId', async () => {
    const batch = Batch.fromSystems([cubic, triclinic]);
    const frames: Float64Array[][] = [];
    const rdf = new RdfHook({ rmax: 6, nbins: 30, frequency: 5 });
    const md = new Langevin({ model: new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }), dt: 5, temperature: 60, friction: 0.01, seed: 1, hooks: [rdf] });
    // The states a log of frequency 5 records, by steps taken: the input, and after 5, 10, 15 and 20 steps.
    const byStep = new Map<number, Float64Array[]>();
    const take = (b: Batch, step: number): void => { byStep.set(step, [0, 1].map((s) => radialDistribution(b, s, 6, 30).g)); };
    md.register({
      stage: rdf.stage, frequency: 5, trigger: every(5, { phase: 4 }), name: 'frames',
      call: (ctx: { batch: Batch; stepCount: number }) => take(ctx.batch, ctx.stepCount + 1),
      observeState: (ctx: { batch: Batch; stepCount: number }) => take(ctx.batch, ctx.stepCount),
    } as never);
    await md.run(batch, { steps: 20 });
    frames.push(...byStep.values());
    expect([...byStep.keys()].sort((a, b) => a - b)).toEqual([0, 5, 10, 15, 20]);
    for (const s of [0, 1]) {
      const result = rdf.rdf(s);
      expect(result?.frames).toBe(5);
      const mean = Array.from({ length: 30 }, (_, k) => frames.reduce((sum, f) => sum + f[s][k], 0) / frames.length);
      Array.from(result?.g ?? []).forEach((value, k) => expect(value).toBeCloseTo(mean[k], 12));
    }
  });

  it('refuses a cell thinner than 2·rmax, and bad options', async () => {
    const batch = Batch.fromSystems([cubic]);
    expect(() => radialDistribution(batch, 0, 8, 10)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER', message: expect.stringMatching(/15\.780 thick .* not more than 2·rmax = 16/) }));
    expect(() => new RdfHook({ rmax: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new RdfHook({ rmax: 5, nbins: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
  });
});
