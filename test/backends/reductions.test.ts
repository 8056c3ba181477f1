// One conformance suite for every built backend (STYLE rule 10): the per-system reductions on a batch small
// enough to reduce by hand. The cuda rows skip without a GPU and fail instead under HOOKMD_REQUIRE_CUDA=1.
import { describe, expect, it } from 'vitest';

import type { NativeBatch, NativeBinding } from '../../lib/native/binding.js';
import { loadCpuBinding, loadCudaBinding, REQUIRE_CUDA } from './support.js';

const METAL_FORCE_TO_ACCEL = 9.648533212e-3;
const METAL_KB = 8.617333262e-5;

// Three systems: two atoms, none, three atoms.
const PTR = Int32Array.of(0, 2, 2, 5);
const POSITIONS = Float64Array.of(3, 4, 0, 0, 0, 12, 1, 2, 2, -2, -3, 6, 0, 0, 0); // norms 5, 12 | 3, 7, 0
const MASSES = Float64Array.of(2, 4, 1, 3, 5);
const VELOCITIES = Float64Array.of(1, 2, 2, 0, 0, 1, 3, 0, 4, 0, 0, 0, 1, 0, 0); // ½mv²: 9, 2 | 12.5, 0, 2.5
const FORCES = Float64Array.of(0, 3, 4, 1, 0, 0, 0, 0, -2, 6, 8, 0, 0, 0, 0); // norms 5, 1 | 2, 10, 0

function handBatch(binding: NativeBinding, backend: string): NativeBatch {
  const batch = new binding.NativeBatch(backend);
  batch.resize(5, 3);
  batch.write('ptr', PTR);
  batch.write('systemIndex', Int32Array.of(0, 0, 2, 2, 2));
  batch.write('positions', POSITIONS);
  batch.write('masses', MASSES);
  batch.write('velocities', VELOCITIES);
  batch.write('forces', FORCES);
  return batch;
}

const cpuBuild = loadCpuBinding();
const cudaBuild = loadCudaBinding();
const cudaAvailable = cudaBuild?.backends().some((entry) => entry.name === 'cuda' && entry.available) === true;

const targets: { label: string; binding: NativeBinding | undefined; backend: string; run: boolean }[] = [
  { label: 'cpu backend of the node-gyp build', binding: cpuBuild, backend: 'cpu', run: cpuBuild !== undefined },
  { label: 'cpu backend of the CUDA build', binding: cudaBuild, backend: 'cpu', run: cudaBuild !== undefined },
  {
    label: `cuda backend${cudaAvailable ? '' : ' (needs a CUDA device; HOOKMD_REQUIRE_CUDA=1 fails instead)'}`,
    binding: cudaBuild,
    backend: 'cuda',
    run: cudaAvailable || REQUIRE_CUDA,
  },
];

for (const { label, binding, backend, run } of targets) {
  describe.skipIf(!run)(`reductions: ${label}`, () => {
    const open = (): NativeBatch => {
      if (binding === undefined) throw new Error(`reductions: no binary with the ${backend} backend was built`);
      return handBatch(binding, backend);
    };

    it('reduces vector fields through each atom norm', () => {
      const batch = open();
      expect(Array.from(batch.reduce('positions', 'sum'))).toEqual([17, 0, 10]);
      expect(batch.reduce('positions', 'mean')[0]).toBe(8.5);
      expect(batch.reduce('positions', 'mean')[2]).toBeCloseTo(10 / 3, 14);
      expect(Array.from(batch.reduce('positions', 'min'))).toEqual([5, 0, 0]);
      expect(Array.from(batch.reduce('positions', 'max'))).toEqual([12, 0, 7]);
      const norm = batch.reduce('positions', 'norm');
      expect(norm[0]).toBe(13);
      expect(norm[1]).toBe(0);
      expect(norm[2]).toBeCloseTo(Math.sqrt(58), 14);
    });

    it('reduces scalar fields directly', () => {
      const batch = open();
      expect(Array.from(batch.reduce('masses', 'sum'))).toEqual([6, 0, 9]);
      expect(Array.from(batch.reduce('masses', 'mean'))).toEqual([3, 0, 3]);
      expect(Array.from(batch.reduce('masses', 'min'))).toEqual([2, 0, 1]);
      expect(Array.from(batch.reduce('masses', 'max'))).toEqual([4, 0, 5]);
      expect(batch.reduce('masses', 'norm')[2]).toBeCloseTo(Math.sqrt(35), 14);
    });

    it('computes kinetic energy in the batch units', () => {
      const batch = open();
      batch.setUnits(1, 1);
      expect(Array.from(batch.kineticEnergy())).toEqual([11, 0, 15]);
      batch.setUnits(METAL_KB, METAL_FORCE_TO_ACCEL);
      const metal = batch.kineticEnergy();
      expect(metal[0]).toBeCloseTo(11 / METAL_FORCE_TO_ACCEL, 9);
      expect(metal[2]).toBeCloseTo(15 / METAL_FORCE_TO_ACCEL, 9);
    });

    it('reports the largest force norm per system', () => {
      expect(Array.from(open().fmax())).toEqual([5, 0, 10]);
    });

    it('returns empty results for a batch without systems', () => {
      if (binding === undefined) throw new Error(`reductions: no binary with the ${backend} backend was built`);
      const batch = new binding.NativeBatch(backend);
      expect(batch.reduce('forces', 'max')).toHaveLength(0);
      expect(batch.kineticEnergy()).toHaveLength(0);
      expect(batch.fmax()).toHaveLength(0);
    });
  });
}
