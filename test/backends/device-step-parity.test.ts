// The device-step family (docs/cuda.md, "Energies only when asked"): between JS hooks an MD run on a device
// backend leaves the per-system energy sums of each step until something reads the energies, and its pair
// loop flags a non-finite energy itself. What a hook or the caller reads must not change: the energies each hook sees and
// the final state follow the CPU, bit for bit on `mirror` (the CPU reference, run under cuda's policy) and to
// rounding on `cuda` (skipped without a GPU; HOOKMD_REQUIRE_CUDA=1 turns the skip into a failure). The family
// may still be dark, so the file turns it on (HOOKMD_CUDA_UNVERIFIED=1) except where it checks the path without it (HOOKMD_CUDA_DISABLE).
import { describe, expect, it } from 'vitest';

import { libraryOn, nveWithHook, type Hookmd, type MdEngine } from './ledger-scenarios.js';
import { largestDifference, loadCudaBinding, REQUIRE_CUDA, unverifiedKernelsOn } from './support.js';

const cudaAvailable = loadCudaBinding()?.backends().find((entry) => entry.name === 'cuda')?.available === true;

unverifiedKernelsOn();

interface Trajectory {
  /** The energy every hook call read, in call order. */
  hookEnergies: number[];
  energy: Float64Array;
  positions: Float64Array;
  velocities: Float64Array;
  rebuildPasses: number;
  /** Launches of the first read of the energies after the run (the pending sums), and of a second read. */
  firstRead: number;
  secondRead: number;
}

/**
 * The in.lj liquid (4³ cells, 256 atoms, T 1.0) for 300 steps of `engine`, a JS hook reading the energy every
 * 70: the last 19 steps leave their sums to the read after the run.
 */
async function liquid(hookmd: Hookmd, engine: MdEngine): Promise<Trajectory> {
  const a = (4 / 0.8442) ** (1 / 3);
  const batch = hookmd.Batch.fromSystems([hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a, cubic: true }), [4, 4, 4])], { units: 'lj' });
  hookmd.initializeVelocities(batch, { temperature: 1.0, seed: 3 });
  const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 });
  const md = engine === 'Langevin' ? new hookmd.Langevin({ model, dt: 0.005, temperature: 1.0, friction: 1, seed: 5 })
    : new hookmd.VelocityVerlet({ model, dt: 0.005 });
  const hookEnergies: number[] = [];
  md.register({
    stage: hookmd.DynamicsStage.AFTER_STEP, frequency: 70, name: 'energy',
    call: (ctx) => void hookEnergies.push(ctx.scalars.energy[0]),
  });
  batch.resetDeviceStats();
  await md.run(batch, { steps: 300 });
  const launches = (): number => batch.deviceStats().launches;
  const beforeRead = launches();
  const energy = batch.read('energy').slice();
  const afterRead = launches();
  batch.read('energy');
  return {
    hookEnergies, energy, positions: batch.read('positions').slice(), velocities: batch.read('velocities').slice(),
    rebuildPasses: batch.deviceStats().rebuildPasses, firstRead: afterRead - beforeRead, secondRead: launches() - afterRead,
  };
}

describe.each([
  { backend: 'mirror' as const, skip: false },
  { backend: 'cuda' as const, skip: !cudaAvailable && !REQUIRE_CUDA },
])('energy sums left until read on $backend', ({ backend, skip }) => {
  it.skipIf(skip).each(['VelocityVerlet', 'Langevin'] as const)('%s: the hooks and the caller read the CPU\'s energies and states', async (engine) => {
    const cpu = await liquid(await libraryOn('cpu'), engine);
    const device = await liquid(await libraryOn(backend), engine);
    // Steps 0, 70, 140, 210 and 280.
    expect(device.hookEnergies).toHaveLength(5);
    // The energies of the last step were summed when read, once (sumSegments and sumSystems).
    expect([device.firstRead, device.secondRead]).toEqual([2, 0]);
    // The lists were rebuilt in the run, so steps with and without a rebuild both left their sums pending.
    expect(device.rebuildPasses).toBeGreaterThan(0);
    if (backend === 'mirror') {
      expect(device.hookEnergies).toEqual(cpu.hookEnergies);
      expect(device.energy).toEqual(cpu.energy);
      expect(device.positions).toEqual(cpu.positions);
      expect(device.velocities).toEqual(cpu.velocities);
    } else {
      // The GPU sums a system in a fixed tree, not in atom order: the last bits differ, and 300 steps of a
      // liquid grow them a little.
      expect(largestDifference(device.hookEnergies, cpu.hookEnergies)).toBeLessThan(1e-8 * 256);
      expect(largestDifference(device.energy, cpu.energy)).toBeLessThan(1e-8 * 256);
      expect(largestDifference(device.positions, cpu.positions)).toBeLessThan(1e-8);
      expect(largestDifference(device.velocities, cpu.velocities)).toBeLessThan(1e-8);
    }
  }, 600_000);

  it.skipIf(skip)('a second model\'s run completes the first one\'s pending sums before its own, which a read then completes', async () => {
    const twoModels = async (hookmd: Hookmd): Promise<Float64Array> => {
      const a = (4 / 0.8442) ** (1 / 3);
      const batch = hookmd.Batch.fromSystems([hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a, cubic: true }), [3, 3, 3])], { units: 'lj' });
      hookmd.initializeVelocities(batch, { temperature: 1.0, seed: 7 });
      await new hookmd.VelocityVerlet({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 }), dt: 0.005 }).run(batch, { steps: 30 });
      await new hookmd.VelocityVerlet({ model: new hookmd.Morse({ D: 1, alpha: 2, r0: 1.1, cutoff: 2.5, skin: 0.3 }), dt: 0.002 }).run(batch, { steps: 30 });
      return batch.read('energy').slice();
    };
    const cpu = await twoModels(await libraryOn('cpu'));
    const device = await twoModels(await libraryOn(backend));
    if (backend === 'mirror') expect(device).toEqual(cpu);
    else expect(largestDifference(device, cpu)).toBeLessThan(1e-8 * 108);
  }, 600_000);

  it.skipIf(skip)('without it (HOOKMD_CUDA_DISABLE=device-step), the step sums every compute\'s energies as before; with it, it saves the two sum launches of each step without a due hook', async () => {
    // Both step by step: the resident chunks (resident-step-parity.test.ts) would take the steps between hooks.
    let dark;
    let lit;
    try {
      process.env.HOOKMD_CUDA_DISABLE = 'device-step,resident-step';
      dark = await nveWithHook(await libraryOn(backend), () => {}, { cells: 4, steps: 200, every: 50 });
      process.env.HOOKMD_CUDA_DISABLE = 'resident-step';
      lit = await nveWithHook(await libraryOn(backend), () => {}, { cells: 4, steps: 200, every: 50 });
    } finally {
      delete process.env.HOOKMD_CUDA_DISABLE;
    }
    // The same trajectory, so the same rebuilds.
    expect(lit.device.rebuildPasses).toBe(dark.device.rebuildPasses);
    // A step at which the hook is due sums at once (the hook could read it); every other step defers, and
    // since nothing reads the energies (the hook reads the temperature), no sum runs later: 2 launches saved
    // per deferred step.
    const dueSteps = lit.chunks - 1;
    const deferredSteps = lit.steps - dueSteps;
    expect(dark.device.launches - lit.device.launches).toBe(2 * deferredSteps);
    expect(lit.device.hostSyncs).toBe(dark.device.hostSyncs);
  }, 600_000);
});

describe('HOOKMD_CUDA_DISABLE', () => {
  it('takes only families with a path to fall back on, and names the choice in its error', async () => {
    const hookmd = await libraryOn('mirror');
    const batch = hookmd.Batch.fromSystems([hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a: 1.68, cubic: true }), [3, 3, 3])], { units: 'lj' });
    const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 });
    try {
      for (const value of ['device-stepp', 'pair-forces', 'device-step,']) {
        process.env.HOOKMD_CUDA_DISABLE = value;
        await expect(new hookmd.VelocityVerlet({ model, dt: 0.005 }).run(batch, { steps: 2 })).rejects.toMatchObject({
          code: 'INVALID_ENVIRONMENT',
          message: expect.stringContaining('small-systems, device-step, neighbor-build'),
        });
      }
      process.env.HOOKMD_CUDA_DISABLE = 'neighbor-build,device-step';
      await new hookmd.VelocityVerlet({ model, dt: 0.005 }).run(batch, { steps: 2 });
    } finally {
      delete process.env.HOOKMD_CUDA_DISABLE;
    }
  }, 120_000);
});
