// The GPU small-system path against the CPU's general path (docs/dynamics.md, "Small systems"): on thousands
// of rattled LJ13 clusters every system converges at the same step, and the relaxed energies agree to
// rounding; FIRE2, gradient descent, VelocityVerlet and Langevin follow the same trajectories to rounding.
// The GPU sums a system's atoms in a fixed tree rather than in atom order, so only the last bits may differ.
// Skipped without a GPU; HOOKMD_REQUIRE_CUDA=1 turns the skip into a failure. The kernel may still be dark,
// so the file turns it on (HOOKMD_CUDA_UNVERIFIED=1).
import { beforeAll, describe, expect, it } from 'vitest';

import type { Dynamics } from '../../lib/dynamics/index.js';
import { libraryOn, rattledLj13, type Hookmd } from './ledger-scenarios.js';
import { loadCudaBinding, REQUIRE_CUDA } from './support.js';

const cudaAvailable = loadCudaBinding()?.backends().find((entry) => entry.name === 'cuda')?.available === true;
const skip = !cudaAvailable && !REQUIRE_CUDA;

beforeAll(() => {
  process.env.HOOKMD_CUDA_UNVERIFIED = '1';
});

type Engine = (hookmd: Hookmd) => Dynamics;

interface Relaxed {
  steps: number;
  convergedAt: Float64Array;
  energy: Float64Array;
  positions: Float64Array;
  /** Device ledger of the run: the path it took. */
  launches: number;
  rebuildPasses: number;
}

async function relax(backend: 'cpu' | 'cuda', engine: Engine, count: number, steps: number, temperature = 0): Promise<Relaxed> {
  // The CPU reference is the general path; the GPU takes the small-system path.
  process.env.HOOKMD_SMALL_SYSTEMS = backend === 'cpu' ? '0' : '1';
  const hookmd = await libraryOn(backend);
  const batch = hookmd.Batch.fromSystems(rattledLj13(count), { units: 'lj' });
  if (temperature > 0) hookmd.initializeVelocities(batch, { temperature, seed: 4 });
  const dynamics = engine(hookmd);
  batch.resetDeviceStats();
  const result = await dynamics.run(batch, { steps });
  const ledger = batch.deviceStats();
  return {
    steps: result.steps, convergedAt: dynamics.convergedAt(), energy: batch.read('energy').slice(), positions: batch.read('positions').slice(),
    launches: ledger.launches, rebuildPasses: ledger.rebuildPasses,
  };
}

const lj = (hookmd: Hookmd) => new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

describe('the small-system path on the GPU against the CPU general path', () => {
  it.skipIf(skip)('FIRE on 8,192 rattled LJ13: the same convergence step for every system, energies to 1e-10', async () => {
    const fire: Engine = (hookmd) => new hookmd.FIRE({ model: lj(hookmd), convergence: hookmd.ConvergenceHook.fromFmax(1e-3) });
    const gpu = await relax('cuda', fire, 8192, 5000);
    const cpu = await relax('cpu', fire, 8192, 5000);
    expect(gpu.steps).toBe(cpu.steps);
    const differing = Array.from(gpu.convergedAt).filter((step, s) => step !== cpu.convergedAt[s]).length;
    expect(differing).toBe(0);
    expect(Math.max(...gpu.energy.map((e, s) => Math.abs(e - cpu.energy[s])))).toBeLessThan(1e-10);
    // The path it took: a few launches for the whole relaxation, and no list in the steps. The run's start
    // computes forces once on the general path, which builds every system's list once (device-budgets.test.ts).
    expect(gpu.launches).toBeLessThan(50);
    expect(gpu.rebuildPasses).toBeLessThanOrEqual(1);
  }, 600_000);

  it.skipIf(skip)('FIRE2 and gradient descent to convergence, VelocityVerlet and Langevin for 200 steps', async () => {
    const convergence = (hookmd: Hookmd) => hookmd.ConvergenceHook.fromFmax(1e-3);
    const engines: Array<{ engine: Engine; steps: number; temperature: number; tolerance: number }> = [
      { engine: (h) => new h.FIRE2({ model: lj(h), convergence: convergence(h) }), steps: 5000, temperature: 0, tolerance: 0 },
      { engine: (h) => new h.GradientDescent({ model: lj(h), stepSize: 0.005, convergence: convergence(h) }), steps: 5000, temperature: 0, tolerance: 0 },
      { engine: (h) => new h.VelocityVerlet({ model: lj(h), dt: 0.002 }), steps: 200, temperature: 0.3, tolerance: 1e-9 },
      { engine: (h) => new h.Langevin({ model: lj(h), dt: 0.002, temperature: 0.3, friction: 1, seed: 2 }), steps: 200, temperature: 0.3, tolerance: 1e-9 },
    ];
    for (const { engine, steps, temperature, tolerance } of engines) {
      const gpu = await relax('cuda', engine, 2048, steps, temperature);
      const cpu = await relax('cpu', engine, 2048, steps, temperature);
      expect(gpu.steps).toBe(cpu.steps);
      expect(Array.from(gpu.convergedAt)).toEqual(Array.from(cpu.convergedAt));
      if (tolerance > 0) expect(Math.max(...gpu.positions.map((x, k) => Math.abs(x - cpu.positions[k])))).toBeLessThan(tolerance);
      expect(gpu.rebuildPasses).toBeLessThanOrEqual(1);
    }
  }, 600_000);
});
