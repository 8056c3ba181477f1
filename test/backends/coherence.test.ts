// The host/device coherence protocol, one test body for every device backend: `mirror` (in every build,
// so CI runs it) and `cuda` (where a GPU is present; HOOKMD_REQUIRE_CUDA=1 makes its absence a failure).
// A read syncs only a stale side, a write marks the other side stale, and transferStats() counts exactly
// the copies that were needed.
import { describe, expect, it } from 'vitest';

import type { NativeBatch, NativeBinding } from '../../lib/native/binding.js';
import { loadCpuBinding, loadCudaBinding, makeBatch, randomBatchData, REQUIRE_CUDA, type BatchData } from './support.js';

const cpuBuild = loadCpuBinding();
const cudaBuild = loadCudaBinding();
const cudaAvailable = cudaBuild?.backends().find((entry) => entry.name === 'cuda')?.available === true;

interface DeviceCase {
  backend: 'mirror' | 'cuda';
  binding: NativeBinding | undefined;
  skip: boolean;
}

const CASES: DeviceCase[] = [
  { backend: 'mirror', binding: cpuBuild, skip: cpuBuild === undefined },
  { backend: 'cuda', binding: cudaBuild, skip: !cudaAvailable && !REQUIRE_CUDA },
];

/** Two fcc-like periodic systems of LJ atoms, far enough apart that forces are finite and non-zero. */
function latticeData(): BatchData & { cell: Float64Array; pbc: Uint8Array } {
  const sizes = [27, 8];
  const data = randomBatchData(5, sizes);
  const cell = new Float64Array(18);
  const pbc = new Uint8Array(6).fill(1);
  let atom = 0;
  sizes.forEach((size, s) => {
    const n = Math.round(Math.cbrt(size));
    const spacing = 1.12;
    for (let k = 0; k < 3; k++) cell[9 * s + 4 * k] = n * spacing;
    for (let i = 0; i < size; i++, atom++) {
      const grid = [i % n, Math.floor(i / n) % n, Math.floor(i / (n * n))];
      for (let c = 0; c < 3; c++) data.positions[3 * atom + c] = grid[c] * spacing + 0.05 * Math.sin(7 * atom + c);
    }
  });
  data.atomicNumbers.fill(18);
  return { ...data, cell, pbc };
}

function deviceBatch(binding: NativeBinding, backend: string, data: ReturnType<typeof latticeData>): NativeBatch {
  const batch = makeBatch(binding, backend, data);
  batch.write('cell', data.cell);
  batch.write('pbc', data.pbc);
  return batch;
}

function lennardJones(binding: NativeBinding) {
  return new binding.PairPotential('LennardJones', Float64Array.of(0, 0, 1, 1, 2.5), false, 0, 0.3);
}

const POSITION_BYTES = (atoms: number): number => 3 * 8 * atoms;

describe.each(CASES)('coherence on $backend', ({ backend, binding, skip }) => {
  const build = (): NativeBinding => {
    if (binding === undefined) throw new Error(`the ${backend} backend is not built (HOOKMD_REQUIRE_CUDA=1 needs a GPU and \`npm run native:cmake\`)`);
    return binding;
  };

  it.skipIf(skip)('keeps host and device apart: host-only views are not device memory', () => {
    const batch = new (build().NativeBatch)(backend);
    expect(batch.unified).toBe(false);
    expect(batch.backend).toBe(backend);
  });

  it.skipIf(skip)('a reduction syncs the fields it reads once, and a second one copies nothing', () => {
    const data = randomBatchData(3, [4, 0, 9]);
    const batch = makeBatch(build(), backend, data);
    batch.resetTransferStats();
    batch.reduce('masses', 'sum');
    const first = batch.transferStats();
    // masses (8 bytes per atom) and ptr (4 bytes per system + 1) go to the device; the 3 results come back.
    expect(first).toEqual({ toHostBytes: 8 * 3, toDeviceBytes: 8 * 13 + 4 * 4, toHostCopies: 1, toDeviceCopies: 2 });
    batch.reduce('masses', 'max');
    expect(batch.transferStats()).toEqual({ ...first, toHostBytes: 2 * 8 * 3, toHostCopies: 2 });
  });

  it.skipIf(skip)('a declared host write reaches the device; a read-only host view does not mark it stale', () => {
    const data = randomBatchData(4, [5, 9]);
    const batch = makeBatch(build(), backend, data);
    batch.reduce('masses', 'sum');
    batch.hostView('masses', true).fill(1);
    expect(Array.from(batch.reduce('masses', 'sum'))).toEqual([5, 9]);
    batch.resetTransferStats();
    batch.hostView('masses', false);
    batch.reduce('masses', 'sum');
    expect(batch.transferStats().toDeviceCopies).toBe(0);
  });

  it.skipIf(skip)('compute with unchanged positions copies no positions to the device', () => {
    const data = latticeData();
    const batch = deviceBatch(build(), backend, data);
    const model = lennardJones(build());
    model.compute(batch, true, false);
    batch.resetTransferStats();
    model.compute(batch, true, false);
    expect(batch.transferStats().toDeviceBytes).toBe(0);
    // A host write of the positions is copied exactly once, by the next compute.
    batch.hostView('positions', true)[0] += 0.01;
    batch.resetTransferStats();
    model.compute(batch, true, false);
    expect(batch.transferStats()).toMatchObject({ toDeviceBytes: POSITION_BYTES(35), toDeviceCopies: 1 });
  });

  it.skipIf(skip)('device results reach the host on first read only, and equal cpu', () => {
    const data = latticeData();
    const batch = deviceBatch(build(), backend, data);
    const reference = deviceBatch(build(), 'cpu', data);
    lennardJones(build()).compute(batch, true, true);
    lennardJones(build()).compute(reference, true, true);
    batch.resetTransferStats();
    const forces = batch.hostView('forces', false).slice();
    expect(batch.transferStats()).toEqual({ toHostBytes: POSITION_BYTES(35), toDeviceBytes: 0, toHostCopies: 1, toDeviceCopies: 0 });
    batch.hostView('forces', false);
    expect(batch.transferStats().toHostCopies).toBe(1);
    const expected = reference.hostView('forces', false);
    const scale = Math.max(...expected.map(Math.abs));
    expect(scale).toBeGreaterThan(0);
    forces.forEach((value, i) => expect(Math.abs(value - expected[i])).toBeLessThanOrEqual(1e-12 * scale));
    const stress = batch.hostView('stress', false);
    reference.hostView('stress', false).forEach((value, i) => expect(Math.abs(stress[i] - value)).toBeLessThanOrEqual(1e-12 * Math.abs(value) + 1e-15));
  });

  it.skipIf(skip)('a rejected write leaves the field and its coherence untouched', () => {
    const data = randomBatchData(6, [3]);
    const batch = makeBatch(build(), backend, data);
    batch.reduce('masses', 'sum');
    batch.resetTransferStats();
    expect(() => batch.write('masses', new Float64Array(2))).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    batch.reduce('masses', 'sum');
    expect(batch.transferStats().toDeviceCopies).toBe(0);
  });

  it.skipIf(skip)('resize zeroes both sides and resets coherence', () => {
    const data = randomBatchData(7, [4, 4]);
    const batch = makeBatch(build(), backend, data);
    batch.reduce('forces', 'max');
    batch.resize(8, 2);
    batch.write('ptr', data.ptr);
    expect(Array.from(batch.fmax())).toEqual([0, 0]);
    expect(batch.hostView('forces', false).every((value) => value === 0)).toBe(true);
  });
});

describe('the cpu backend is one memory', () => {
  it.skipIf(cpuBuild === undefined)('moves nothing and reports zero transfers', () => {
    const data = latticeData();
    const batch = deviceBatch(cpuBuild as NativeBinding, 'cpu', data);
    expect(batch.unified).toBe(true);
    lennardJones(cpuBuild as NativeBinding).compute(batch, true, true);
    batch.hostView('forces', true);
    batch.reduce('forces', 'max');
    expect(batch.transferStats()).toEqual({ toHostBytes: 0, toDeviceBytes: 0, toHostCopies: 0, toDeviceCopies: 0 });
  });
});
