// The device ledger (docs/cuda.md, "The device ledger"), one test body for every device backend: `mirror`
// (every build, so CI runs it) and `cuda` (where a GPU is present; HOOKMD_REQUIRE_CUDA=1 makes its absence a
// failure). The expected counts are read from the CUDA kernels' host code: a skin check is a flag reset and
// two kernels, then one 40-byte status read; an evaluation a flag reset, the pair loop and two sum kernels,
// then one status read; a rebuild pass 6 + 4 + 1 launches with three status reads; a reduction a flag reset
// and one kernel, then one read of the results with the flag. On cuda each step also checks that what the
// GPU really did (actualDeviceStats) equals what was charged.
import { describe, expect, it } from 'vitest';

import type { DeviceStats, NativeBatch, NativeBinding } from '../../lib/native/binding.js';
import { loadCpuBinding, loadCudaBinding, makeBatch, randomBatchData, REQUIRE_CUDA, type BatchData } from './support.js';

const cpuBuild = loadCpuBinding();
const cudaBuild = loadCudaBinding();
const cudaAvailable = cudaBuild?.backends().find((entry) => entry.name === 'cuda')?.available === true;

const CASES = [
  { backend: 'mirror' as const, binding: cpuBuild, skip: cpuBuild === undefined },
  { backend: 'cuda' as const, binding: cudaBuild, skip: !cudaAvailable && !REQUIRE_CUDA },
];

const STATUS_BYTES = 40;

/** Two free clusters (5 and 3 atoms, 1.2 σ apart along a line): every row is shorter than the first capacity, 16. */
function clusterData(): BatchData {
  const data = randomBatchData(11, [5, 3]);
  data.positions.fill(0);
  for (let atom = 0; atom < 8; atom++) data.positions[3 * atom] = 1.2 * atom;
  data.atomicNumbers.fill(18);
  return data;
}

/** The real counts: what the declared ones must equal (only cuda has them; everything else compares zero). */
const REAL_FIELDS = ['launches', 'graphLaunches', 'hostSyncs', 'controlToHostBytes', 'controlToDeviceBytes'] as const;

describe.each(CASES)('device ledger on $backend', ({ backend, binding, skip }) => {
  const build = (): NativeBinding => {
    if (binding === undefined) throw new Error(`the ${backend} backend is not built (HOOKMD_REQUIRE_CUDA=1 needs a GPU and \`npm run native:cmake\`)`);
    return binding;
  };

  /** Runs `action` and returns what it charged; on cuda, first checks the charges against the real counts. */
  const charged = (lib: NativeBinding, batch: NativeBatch, action: () => void): DeviceStats => {
    batch.resetDeviceStats();
    lib.resetActualDeviceStats?.();
    action();
    const declared = batch.deviceStats();
    if (backend === 'cuda') {
      const real = lib.actualDeviceStats?.() as DeviceStats;
      for (const field of REAL_FIELDS) expect({ field, count: real[field] }).toEqual({ field, count: declared[field] });
    }
    return declared;
  };

  it.skipIf(skip)('a pair compute charges its uploads, one rebuild pass of every system and the status reads', () => {
    const lib = build();
    const batch = makeBatch(lib, backend, clusterData());
    const lj = new lib.PairPotential('LennardJones', Float64Array.of(0, 0, 1, 1, 2.5), false, 0, 0.3);
    const first = charged(lib, batch, () => lj.compute(batch, true, false));
    // The host-written positions and ptr go to the device (2 field copies); the parameter table, the per-atom
    // system index, the 2 sum segments and the 3 segment offsets go up (4 control copies); the grids (2 waits:
    // the status goes up and comes back), bins and search (1 wait) and the evaluation (1 wait).
    expect(first.launches).toBe(6 + 4 + 1 + 4);
    expect(first.hostSyncs).toBe(2 + 4 + 2 + 1 + 1);
    expect(first.controlToHostBytes).toBe(3 * STATUS_BYTES);
    expect(first.controlToDeviceBytes - 8 * 4 - 2 * 12 - 3 * 4 - STATUS_BYTES).toBeGreaterThan(0);
    expect(first.rebuildPasses).toBe(1);
    expect(first.systemsRebuilt).toBe(2);
    expect(first.modeledDeviceBytes).toBeGreaterThan(0);

    // Nothing moved: a skin check and an evaluation, two status reads, nothing uploaded.
    const steady = charged(lib, batch, () => lj.compute(batch, true, false));
    expect(steady).toMatchObject({ launches: 3 + 4, hostSyncs: 2, controlToHostBytes: 2 * STATUS_BYTES, controlToDeviceBytes: 0, rebuildPasses: 0 });
  });

  it.skipIf(skip)('one system moving more than skin/2 rebuilds every system; a smaller move rebuilds none', () => {
    const lib = build();
    const data = clusterData();
    const batch = makeBatch(lib, backend, data);
    const lj = new lib.PairPotential('LennardJones', Float64Array.of(0, 0, 1, 1, 2.5), false, 0, 0.3);
    lj.compute(batch, true, false);
    const moveLastAtom = (dy: number): void => {
      data.positions[3 * 7 + 1] += dy;
      batch.write('positions', data.positions);
    };
    // Within skin/2 = 0.15: the positions go up (one field copy), then a check and an evaluation.
    const small = charged(lib, batch, () => {
      moveLastAtom(0.1);
      lj.compute(batch, true, false);
    });
    expect(small).toMatchObject({ launches: 7, hostSyncs: 1 + 2, rebuildPasses: 0, systemsRebuilt: 0 });
    // 0.1 + 0.1 from the build: system 1 is stale, and cuda rebuilds both systems in one pass.
    const large = charged(lib, batch, () => {
      moveLastAtom(0.1);
      lj.compute(batch, true, false);
    });
    expect(large).toMatchObject({ launches: 3 + 11 + 4, hostSyncs: 1 + 1 + 3 + 1, rebuildPasses: 1, systemsRebuilt: 2 });
  });

  it.skipIf(skip)('a reduction is a flag reset and one kernel, with results and flag in one read', () => {
    const lib = build();
    const batch = makeBatch(lib, backend, randomBatchData(3, [4, 0, 7]));
    batch.reduce('velocities', 'sum');
    // Velocities and ptr are now current on the device: only the reduction itself.
    const stats = charged(lib, batch, () => batch.reduce('velocities', 'max'));
    expect(stats).toMatchObject({ launches: 2, hostSyncs: 1, controlToHostBytes: (3 + 1) * 8, controlToDeviceBytes: 0 });
    expect(stats.modeledDeviceBytes).toBeGreaterThan(0);
    // A host write makes the next one copy the field up first (and the masses, never used on the device yet).
    batch.write('velocities', new Float64Array(3 * 11));
    expect(charged(lib, batch, () => batch.kineticEnergy()).hostSyncs).toBe(2 + 1);
  });

  it.skipIf(skip)('resetDeviceStats zeroes every counter', () => {
    const lib = build();
    const batch = makeBatch(lib, backend, randomBatchData(4, [3]));
    batch.reduce('forces', 'norm');
    expect(batch.deviceStats().launches).toBeGreaterThan(0);
    batch.resetDeviceStats();
    expect(Object.values(batch.deviceStats()).every((value) => value === 0)).toBe(true);
  });
});

describe('device ledger on cpu', () => {
  it.skipIf(cpuBuild === undefined)('stays zero: host and device are one memory', () => {
    const lib = cpuBuild as NativeBinding;
    const batch = makeBatch(lib, 'cpu', clusterData());
    const lj = new lib.PairPotential('LennardJones', Float64Array.of(0, 0, 1, 1, 2.5), false, 0, 0.3);
    lj.compute(batch, true, true);
    batch.reduce('forces', 'max');
    expect(Object.values(batch.deviceStats()).every((value) => value === 0)).toBe(true);
  });
});
