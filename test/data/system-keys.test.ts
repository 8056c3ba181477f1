// Issue 39, item 8: a misspelt System key (velocites, mass) or ASE's momenta was dropped, and the run
// started at rest or with table masses. Now UNKNOWN_OPTION with the key it probably meant.
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { FIRE } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';

const dimer = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 3.8]] };

describe('unknown System keys are UNKNOWN_OPTION with "did you mean" (issue 39, item 8)', () => {
  it.each([
    ['velocites', [[0.01, 0, 0], [-0.01, 0, 0]], /systems\[0\]: unknown option velocites \(did you mean velocities\?\)/, 'velocities'],
    ['mass', [40, 40], /unknown option mass \(did you mean masses\?\)/, 'masses'],
    ['numbers', [18, 18], /unknown option numbers \(did you mean atomicNumbers\?\)/, 'atomicNumbers'],
  ])('%s', (key, value, message, suggestion) => {
    expect(() => Batch.fromSystems([{ ...dimer, [key]: value }])).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION', message: expect.stringMatching(message), details: expect.objectContaining({ suggestion }) }));
  });

  it("ASE's momenta are refused with the conversion to velocities", () => {
    expect(() => Batch.fromSystems([dimer, { ...dimer, momenta: [[0.4, 0, 0], [-0.4, 0, 0]] } as never])).toThrow(expect.objectContaining({
      code: 'UNKNOWN_OPTION',
      message: expect.stringMatching(/systems\[1\]: unknown option momenta \(a System takes velocities, not momenta: velocities = momenta \/ masses × ASE_FS/),
    }));
  });

  it('append and runStream check the same; the known keys pass', async () => {
    const batch = Batch.fromSystems([{ ...dimer, masses: [40, 40], velocities: [[0, 0, 0], [0, 0, 0]], cell: [10, 10, 10], pbc: true, info: { tag: 1 } }]);
    expect(() => batch.append([{ ...dimer, velocites: [[0, 0, 0], [0, 0, 0]] } as never])).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
    const fire = new FIRE({ model: new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8 }) });
    await expect(fire.runStream([{ ...dimer, mass: [1, 1] } as never], { sinks: [], maxAtoms: 10, maxSteps: 1 })).rejects.toMatchObject({ code: 'UNKNOWN_OPTION' });
  });
});
