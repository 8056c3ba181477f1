// The ledger's contract on a GPU (docs/cuda.md, "The device ledger"): over every workload of
// ledger-scenarios.ts, what the cuda backend really launched, waited for and copied (counted by the wrappers
// of native/cuda/core/CudaLaunch.h) equals what it charged from the cost table, so the table cannot drift; and
// `mirror`, which charges from the same table where it emulates the same code, charges what cuda charged on
// workloads short enough that both take the same decisions (rebuild steps, convergence steps). Skipped
// without a GPU; HOOKMD_REQUIRE_CUDA=1 turns the skip into a failure.
import { describe, expect, it } from 'vitest';

import type { DeviceStats, NativeBinding } from '../../lib/native/binding.js';
import { fireClusters, libraryOn, nveWithHook, type Hookmd, type ScenarioResult } from './ledger-scenarios.js';
import { loadCudaBinding, REQUIRE_CUDA } from './support.js';

const cudaAvailable = loadCudaBinding()?.backends().find((entry) => entry.name === 'cuda')?.available === true;
const skip = !cudaAvailable && !REQUIRE_CUDA;

const REAL_FIELDS = ['launches', 'graphLaunches', 'hostSyncs', 'controlToHostBytes', 'controlToDeviceBytes'] as const;

type Scenario = (hookmd: Hookmd, start: () => void) => Promise<ScenarioResult>;

/** Runs `scenario` on cuda and returns its ledger and the real counts over the same steps. */
async function onCuda(scenario: Scenario): Promise<{ result: ScenarioResult; real: DeviceStats }> {
  const hookmd = await libraryOn('cuda');
  // The binding of the same library instance (libraryOn started a fresh module registry).
  const binding = (await import('../../lib/native/index.js')).loadBinding() as NativeBinding;
  if (binding.resetActualDeviceStats === undefined || binding.actualDeviceStats === undefined) throw new Error('the CUDA build has no real counters');
  const result = await scenario(hookmd, () => binding.resetActualDeviceStats?.());
  return { result, real: binding.actualDeviceStats() };
}

function expectRealEqualsDeclared(real: DeviceStats, declared: DeviceStats): void {
  for (const field of REAL_FIELDS) expect({ field, count: real[field] }).toEqual({ field, count: declared[field] });
}

// Under HOOKMD_CUDA_UNVERIFIED=1 (scripts/gpu-check.sh verify) the MD scenarios take any dark family too.
// The resident chunks' scenario must run graphs, so their launches, status reads and the launches captured
// into each graph (counted by CudaLaunch's capture tally) are held to the table.
const SCENARIOS: Array<{ name: string; scenario: Scenario; comparable: boolean; graphs?: boolean }> = [
  { name: 'NVE, 4,000 atoms, 1,000 steps, a JS hook every 100', scenario: (h, s) => nveWithHook(h, s), comparable: false },
  { name: 'NVE, 256 atoms, 20 steps, a JS hook every 10', scenario: (h, s) => nveWithHook(h, s, { cells: 4, steps: 20, every: 10 }), comparable: true },
  { name: 'Langevin, 256 atoms, 20 steps, a JS hook every 10', scenario: (h, s) => nveWithHook(h, s, { cells: 4, steps: 20, every: 10, engine: 'Langevin' }), comparable: true },
  { name: 'Nosé–Hoover chain, 256 atoms, 20 steps, a JS hook every 10', scenario: (h, s) => nveWithHook(h, s, { cells: 4, steps: 20, every: 10, engine: 'NoseHooverChain' }),
    comparable: true },
  { name: 'NVE in resident chunks, 256 atoms, 120 steps, a JS hook every 40', scenario: (h, s) => nveWithHook(h, s, { cells: 4, steps: 120, every: 40 }),
    comparable: true, graphs: true },
  { name: 'FIRE, 4,096 LJ13', scenario: (h, s) => fireClusters(h, s), comparable: false },
  { name: 'FIRE, 64 LJ13', scenario: (h, s) => fireClusters(h, s, { count: 64 }), comparable: true },
  { name: 'FIRE2, 64 LJ13', scenario: (h, s) => fireClusters(h, s, { count: 64, engine: 'FIRE2' }), comparable: true },
  { name: 'gradient descent, 64 LJ13', scenario: (h, s) => fireClusters(h, s, { count: 64, engine: 'GradientDescent' }), comparable: true },
];

describe('ledger contract on cuda', () => {
  for (const { name, scenario, comparable, graphs } of SCENARIOS) {
    it.skipIf(skip)(`${name}: real counts equal the declared ones${comparable ? ', and mirror charges the same' : ''}`, async () => {
      const { result, real } = await onCuda(scenario);
      expect(result.device.launches).toBeGreaterThan(0);
      if (graphs) expect(result.device.graphLaunches).toBeGreaterThan(0);
      expectRealEqualsDeclared(real, result.device);
      if (!comparable) return;
      const emulated = await scenario(await libraryOn('mirror'), () => {});
      expect(emulated.steps).toBe(result.steps);
      expect(emulated.device).toEqual(result.device);
    }, 300_000);
  }
});
