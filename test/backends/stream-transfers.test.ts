// A runStream refill compacts the kept systems where they live (on the device during a run): only the
// systems that leave are read back, and only the systems that enter are written. Measured on `mirror`,
// which copies exactly as cuda does; a refill that round-tripped the whole batch moves ten times more.
import { describe, expect, it, vi } from 'vitest';

type Hookmd = typeof import('../../lib/index.js');

async function libraryOn(backend: 'mirror'): Promise<Hookmd> {
  vi.resetModules();
  const hookmd = await import('../../lib/index.js');
  hookmd.configureNative({ backend });
  return hookmd;
}

// Bytes of one atom's rows (positions, velocities, forces, masses, atomic number) and of one system's
// (energy, stress, cell, pbc, status, systemId): what a system costs to write in or read out once.
const ATOM_BYTES = 3 * 8 + 3 * 8 + 3 * 8 + 8 + 4;
const SYSTEM_BYTES = 8 + 9 * 8 + 9 * 8 + 3 + 4 + 4;

describe('runStream on a device backend', () => {
  it('moves each system in and out once, not the whole batch at every refill', async () => {
    const hookmd = await libraryOn('mirror');
    const fire = new hookmd.FIRE({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 }), convergence: hookmd.ConvergenceHook.fromFmax(1e-3) });
    let batch: import('../../lib/index.js').Batch | undefined;
    fire.register({ stage: hookmd.DynamicsStage.BEFORE_STEP, frequency: 1, trigger: hookmd.at(0), call: (ctx) => { batch = ctx.batch; ctx.batch.resetTransferStats(); } });
    let atoms = 0;
    function* source(): Generator<import('../../lib/index.js').System> {
      for (let i = 0; i < 2000; i++) {
        const n = 2 + (i % 4);
        atoms += n;
        yield { symbols: Array(n).fill('Ar'), positions: Array.from({ length: n }, (_, k) => [1.3 * k, 0.2 * Math.sin(i + k), 0.2 * Math.cos(2 * i + k)]) };
      }
    }
    const sink = new hookmd.HostMemorySink();
    const maxAtoms = 512;
    const result = await fire.runStream(source(), { sinks: [sink], maxAtoms, refillEvery: 5, maxSteps: 2000, units: 'lj' });
    expect(result.processed).toBe(2000);
    expect(sink.read()).toHaveLength(2000);
    const stats = (batch as NonNullable<typeof batch>).transferStats();
    const rowsOnce = ATOM_BYTES * atoms + SYSTEM_BYTES * 2000;
    const systemsInFlight = maxAtoms / 2;
    // In: each entering system's rows once, the rebuilt layout (ptr) per refill, and the status codes after a
    // step in which systems converged (the convergence bookkeeping runs on the host; integrators read them).
    expect(stats.toDeviceBytes).toBeLessThan(2 * rowsOnce + result.steps * systemsInFlight * 4);
    // Out: each leaving system's rows once, plus per-system results (the fmax of the convergence check) per step.
    expect(stats.toHostBytes).toBeLessThan(2 * rowsOnce + result.steps * systemsInFlight * 8);
  });
});
