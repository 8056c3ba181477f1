// Issue 46: the engine's FixSymmetry holds each system's space group through a stream's refills: a system
// that enters at a refill is refined and brings its own group, and the kept ones keep theirs. Each system
// leaves where engine.run with FixSymmetry on that system alone leaves it, with its space group.
import { describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, symmetry, type System } from '../../lib/data/index.js';
import { CellFilter, ConvergenceHook, FIRE, FixSymmetry } from '../../lib/dynamics/index.js';
import { HostMemorySink } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 0.1, sigma: 2.3, cutoff: 6.9 });
const engine = (): FIRE => new FIRE({ model: lj(), cellFilter: new CellFilter(), constraints: [new FixSymmetry()], convergence: ConvergenceHook.fromFmaxAndStress(1e-6, 1e-8) });

// Strained, rattled crystals of three groups, in an order that mixes them across refills.
const systems: System[] = [
  rattle(bulk('Mg', 'hcp', { a: 2.45, c: 4.2875 }), 0.002, 5),
  rattle(bulk('Mg', 'fcc', { a: 3.4, cubic: true }), 0.002, 6),
  rattle(bulk('Mg', 'hcp', { a: 2.7, c: 4.1 }), 0.002, 7),
  rattle(bulk('Mg', 'bcc', { a: 2.9, cubic: true }), 0.002, 8),
  rattle(bulk('Mg', 'hcp', { a: 2.5, c: 4.5 }), 0.002, 9),
];
const groups = [194, 225, 194, 229, 194];

describe('FixSymmetry in a stream', () => {
  it('each system, whichever refill brings it, relaxes as it does alone and keeps its space group', async () => {
    expect(systems.map((s) => symmetry(s, { symprec: 0.01 }).number)).toEqual(groups);
    const sink = new HostMemorySink();
    const result = await engine().runStream(systems, { sinks: [sink], maxAtoms: 8, maxSystems: 2, refillEvery: 5, maxSteps: 20_000, restoreOrder: true });
    expect(result.converged).toBe(systems.length);
    const outs = sink.read();
    for (const [k, system] of systems.entries()) {
      const batch = Batch.fromSystems([system]);
      expect((await engine().run(batch, { steps: 20_000 })).converged[0]).toBe(1);
      const alone = batch.toSystems()[0] as System;
      const out = outs[k] as System;
      (out.positions as number[][]).flat().forEach((x, i) => expect(Math.abs(x - ((alone.positions as number[][]).flat()[i] as number))).toBeLessThan(1e-10));
      (out.cell as number[][]).flat().forEach((x, i) => expect(Math.abs(x - ((alone.cell as number[][]).flat()[i] as number))).toBeLessThan(1e-10));
      expect(symmetry(out, { symprec: 1e-5 }).number).toBe(groups[k]);
    }
  });
});
