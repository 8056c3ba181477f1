// The resident-step family (docs/cuda.md, "Resident chunks"): between two due JS hooks a VelocityVerlet run on
// a device backend takes each chunk of steps as one CUDA graph (kick + drift + skin check, a device-decided
// rebuild of the stale systems, force + closing kick) with one status read. What a hook or the caller sees
// must not change: the trajectory follows the CPU, bit for bit on `mirror` (which computes the chunk with the
// CPU reference under cuda's policy) and to rounding on `cuda` (skipped without a GPU; HOOKMD_REQUIRE_CUDA=1
// turns the skip into a failure). A chunk that overflows a row or meets a non-finite energy is put back and
// replayed step by step, which grows the rows or raises OVERLAPPING_ATOMS at the step cpu raises it; with the
// resident-regrow family on, a chunk whose rows alone overflowed grows them and runs again on the device. The
// family was verified on an H200 (docs/cuda.md, "Verified on a GPU"), so it is on unless HOOKMD_CUDA_DISABLE
// names it.
import { describe, expect, it } from 'vitest';

import type { Batch } from '../../lib/index.js';
import type { DeviceStats } from '../../lib/native/binding.js';
import { libraryOn, type Hookmd } from './ledger-scenarios.js';
import { largestDifference, loadCudaBinding, REQUIRE_CUDA } from './support.js';

const cudaAvailable = loadCudaBinding()?.backends().find((entry) => entry.name === 'cuda')?.available === true;

/** resident-regrow is dark (docs/cuda.md, "Dark kernels"): on only where HOOKMD_CUDA_UNVERIFIED=1 (scripts/gpu-check.sh verify). */
function regrowOn(): boolean {
  return process.env.HOOKMD_CUDA_UNVERIFIED === '1' && !(process.env.HOOKMD_CUDA_DISABLE ?? '').split(',').includes('resident-regrow');
}

interface Trajectory {
  /** Energy and temperature every hook call read, in call order. */
  hookReads: number[];
  energy: Float64Array;
  positions: Float64Array;
  velocities: Float64Array;
  device: DeviceStats;
  /** The error the run ended with, if any. */
  error?: { code: string; message: string };
}

interface LiquidOptions {
  steps?: number;
  every?: number;
  /** Called by the hook after it has read, with the step it ran at: the place to edit the batch. */
  edit?: (batch: Batch, step: number) => void;
}

/** The in.lj liquid (4³ cells, 256 atoms, T 1.0, rc 2.5, skin 0.3) under VelocityVerlet, a JS hook every `every` steps. */
async function liquid(hookmd: Hookmd, { steps = 300, every = 70, edit }: LiquidOptions = {}): Promise<Trajectory> {
  const a = (4 / 0.8442) ** (1 / 3);
  const batch = hookmd.Batch.fromSystems([hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a, cubic: true }), [4, 4, 4])], { units: 'lj' });
  hookmd.initializeVelocities(batch, { temperature: 1.0, seed: 3 });
  const md = new hookmd.VelocityVerlet({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 }), dt: 0.005 });
  const hookReads: number[] = [];
  md.register({
    stage: hookmd.DynamicsStage.AFTER_STEP, frequency: every, name: 'observe',
    call: (ctx) => {
      hookReads.push(ctx.scalars.energy[0], ctx.scalars.temperature[0]);
      edit?.(batch, ctx.stepCount);
    },
  });
  batch.resetDeviceStats();
  let error: Trajectory['error'];
  try {
    await md.run(batch, { steps });
  } catch (caught) {
    const { code, message } = caught as { code: string; message: string };
    error = { code, message };
  }
  const device = batch.deviceStats();
  return {
    hookReads, energy: batch.read('energy').slice(), positions: batch.read('positions').slice(),
    velocities: batch.read('velocities').slice(), device, error,
  };
}

/** Bit for bit on mirror; on cuda the GPU's sums and list order change the last bits, which a liquid grows a little. */
function expectSameTrajectory(backend: 'mirror' | 'cuda', device: Trajectory, cpu: Trajectory): void {
  expect(device.error).toEqual(cpu.error);
  if (backend === 'mirror') {
    expect(device.hookReads).toEqual(cpu.hookReads);
    expect(device.energy).toEqual(cpu.energy);
    expect(device.positions).toEqual(cpu.positions);
    expect(device.velocities).toEqual(cpu.velocities);
  } else {
    expect(largestDifference(device.hookReads, cpu.hookReads)).toBeLessThan(1e-8 * 256);
    expect(largestDifference(device.energy, cpu.energy)).toBeLessThan(1e-8 * 256);
    expect(largestDifference(device.positions, cpu.positions)).toBeLessThan(1e-8);
    expect(largestDifference(device.velocities, cpu.velocities)).toBeLessThan(1e-8);
  }
}

/** Moves atom 1 onto atom 0, with its velocity and force: the next drift keeps them together, and the energy is infinite. */
function collide(batch: Batch): void {
  for (const field of ['positions', 'velocities', 'forces'] as const) {
    const values = batch[field];
    for (let c = 0; c < 3; ++c) values[3 + c] = values[c];
  }
}

/** Draws every atom 10 % closer to the cell's centre: a denser core whose rows outgrow the list's capacity. */
function compress(batch: Batch): void {
  // read(): a write access to the cell (the getter) would change the geometry a chunk's lists belong to.
  const cell = batch.read('cell');
  const positions = batch.positions;
  const centre = [0, 1, 2].map((c) => 0.5 * cell[4 * c]);
  for (let k = 0; k < positions.length; ++k) positions[k] = centre[k % 3] + 0.9 * (positions[k] - centre[k % 3]);
}

/** Stretches the cell by 0.1 % along x, atoms and all: the bin grids a chunk relies on may change. */
function stretch(batch: Batch): void {
  const cell = batch.cell;
  const positions = batch.positions;
  for (let k = 0; k < 3; ++k) cell[k] *= 1.001;
  for (let k = 0; k < positions.length; k += 3) positions[k] *= 1.001;
}

describe.each([
  { backend: 'mirror' as const, skip: false },
  { backend: 'cuda' as const, skip: !cudaAvailable && !REQUIRE_CUDA },
])('resident chunks on $backend', ({ backend, skip }) => {
  it.skipIf(skip)('take the steps between due hooks as one graph each, and the hooks and the caller read the CPU\'s trajectory', async () => {
    const cpu = await liquid(await libraryOn('cpu'));
    const device = await liquid(await libraryOn(backend));
    // Hooks at steps 0, 70, 140, 210 and 280; chunks of 69 steps between them and 20 after the last one.
    expect(device.hookReads).toHaveLength(10);
    expect(device.device.graphLaunches).toBe(5);
    // The liquid moves enough in 300 steps that the device decided on rebuilds inside the chunks.
    expect(device.device.rebuildPasses).toBeGreaterThan(2);
    expectSameTrajectory(backend, device, cpu);
  }, 600_000);

  it.skipIf(skip)('without the family (HOOKMD_CUDA_DISABLE=resident-step) the run goes step by step to the same trajectory', async () => {
    const lit = await liquid(await libraryOn(backend));
    let disabled;
    try {
      process.env.HOOKMD_CUDA_DISABLE = 'resident-step';
      disabled = await liquid(await libraryOn(backend));
    } finally {
      delete process.env.HOOKMD_CUDA_DISABLE;
    }
    expect(disabled.device.graphLaunches).toBe(0);
    expect(lit.device.graphLaunches).toBeGreaterThan(0);
    expectSameTrajectory(backend, lit, disabled);
  }, 600_000);

  it.skipIf(skip)('replay a chunk whose energy turns non-finite, and raise OVERLAPPING_ATOMS at the step cpu does, in its words', async () => {
    // The hook at step 40 puts atom 1 on atom 0; the chunk after it meets the infinite energy at its first step.
    const options: LiquidOptions = { steps: 100, every: 40, edit: (batch, step) => step === 40 && collide(batch) };
    const cpu = await liquid(await libraryOn('cpu'), options);
    const device = await liquid(await libraryOn(backend), options);
    expect(cpu.error?.code).toBe('OVERLAPPING_ATOMS');
    expect(cpu.error?.message).toContain('atoms 0 and 1 of system 0');
    // Chunks 1–39 and 41–79 (the second one put back and replayed): the positions are those of step 41.
    expect(device.device.graphLaunches).toBe(2);
    expectSameTrajectory(backend, device, cpu);
  }, 600_000);

  it.skipIf(skip)('after a hook that writes the cell, the next chunk goes step by step (its bin grids are rebuilt there)', async () => {
    const options: LiquidOptions = { steps: 60, every: 20, edit: (batch, step) => step === 20 && stretch(batch) };
    const cpu = await liquid(await libraryOn('cpu'), options);
    const device = await liquid(await libraryOn(backend), options);
    // Chunks 1–19 and 41–59 stay on the device; 21–39 follows the cell's change step by step. A loaded
    // machine may end the step-by-step walk at its 20 ms slice after step 21's rebuild, and the rest of the
    // chunk, whose grids are then current, goes on the device: a third graph (the trajectory must not change).
    expect(device.device.graphLaunches).toBeGreaterThanOrEqual(2);
    expect(device.device.graphLaunches).toBeLessThanOrEqual(3);
    expectSameTrajectory(backend, device, cpu);
  }, 600_000);

  // The hook at step 20 compresses the liquid; the next chunk's first rebuild finds rows longer than the capacity.
  const compressed: LiquidOptions = { steps: 60, every: 20, edit: (batch, step) => step === 20 && compress(batch) };

  it.skipIf(skip)('replay a chunk whose rebuild overflows a row (HOOKMD_CUDA_DISABLE=resident-regrow): the step-by-step path grows the rows and follows the CPU', async () => {
    const cpu = await liquid(await libraryOn('cpu'), compressed);
    let device;
    let uncompressed;
    try {
      process.env.HOOKMD_CUDA_DISABLE = 'resident-regrow';
      device = await liquid(await libraryOn(backend), compressed);
      uncompressed = await liquid(await libraryOn(backend), { steps: 60, every: 20 });
    } finally {
      delete process.env.HOOKMD_CUDA_DISABLE;
    }
    expect(device.device.graphLaunches).toBe(3);
    expect(device.device.rowRegrowths).toBe(0);
    // The replayed chunk's 19 steps waited twice each (check and evaluation) on the step-by-step path; a run
    // without the compression waits once per chunk.
    expect(device.device.hostSyncs - uncompressed.device.hostSyncs).toBeGreaterThanOrEqual(2 * 19);
    expectSameTrajectory(backend, device, cpu);
  }, 600_000);

  it.skipIf(skip || !regrowOn())('regrow the rows of a chunk whose rebuild overflows one (resident-regrow): the chunk runs again on the device and follows the CPU', async () => {
    const cpu = await liquid(await libraryOn('cpu'), compressed);
    const device = await liquid(await libraryOn(backend), compressed);
    const uncompressed = await liquid(await libraryOn(backend), { steps: 60, every: 20 });
    // The overflowing chunk runs twice as a graph: once to find the long rows, once with rows that hold them.
    expect(device.device.rowRegrowths).toBe(1);
    expect(device.device.graphLaunches).toBe(4);
    // The chunk's second status read and its rebuild's three waits (≤ 5 a regrowth), and the four of one more
    // rebuild the denser liquid may need at a due step; the replay above waits 2 × 19 and more.
    expect(device.device.hostSyncs - uncompressed.device.hostSyncs).toBeLessThanOrEqual(5 * device.device.rowRegrowths + 4);
    expectSameTrajectory(backend, device, cpu);
  }, 600_000);
});
