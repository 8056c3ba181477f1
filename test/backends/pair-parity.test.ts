// GPU parity of the pair forces (issue 11): the cuda backend's neighbor lists and pair loop against the cpu
// reference of the same build, on the native binding directly. Skips without a usable GPU; with
// HOOKMD_REQUIRE_CUDA=1 a missing GPU fails instead.
//
// Tolerances: energies within 1e-12 of max(|E|, atoms) (eps·atoms is the sum's rounding scale), forces
// within 1e-12 of the system's largest |F| (at least 1 ε/σ: a lone atom's self-image forces cancel to 0 on
// cpu but to rounding on the GPU, whose full list visits each image from both sides), stress within 1e-12
// of the system's largest |σ|. Pair counts: the cpu's half list stores each unordered pair (self-images
// included) once; the GPU's full list stores it in both rows and neighborStats() reports entries / 2, so
// the two counts are equal exactly when the pair sets are.
import { describe, expect, it } from 'vitest';

import type { NativeBatch, NativeBinding } from '../../lib/native/binding.js';
import type { NativePotential } from '../../lib/native/models-binding.js';
import { loadCudaBinding, randomSource, REQUIRE_CUDA } from './support.js';

const RTOL = 1e-12;
const SKIN = 0.3;
const binding = loadCudaBinding();
const cudaAvailable = binding?.backends().find((entry) => entry.name === 'cuda')?.available === true;

/** Periodicity and cell of one generated system. */
interface SystemSpec {
  atoms: number;
  pbc: [number, number, number];
  /** 'zero' writes an all-zero cell (a cluster without one); its atoms still fill the virtual box. */
  cell?: 'zero';
  /** Rows of a non-periodic direction set to zero (allowed: only periodic rows span the lattice). */
  zeroFree?: boolean;
}

interface Geometry {
  sizes: number[];
  positions: Float64Array;
  atomicNumbers: Int32Array;
  cell: Float64Array;
  pbc: Uint8Array;
}

/**
 * Jittered-grid systems at ρ ≈ 0.8 σ⁻³ in random triclinic boxes (det = L³, so the density holds), with some
 * atoms moved by whole lattice vectors along periodic rows so the build must wrap them.
 */
function makeGeometry(seed: number, specs: readonly SystemSpec[], species: readonly number[] = [18]): Geometry {
  const random = randomSource(seed);
  const atoms = specs.reduce((total, spec) => total + spec.atoms, 0);
  const geometry: Geometry = {
    sizes: specs.map((spec) => spec.atoms),
    positions: new Float64Array(3 * atoms),
    atomicNumbers: new Int32Array(atoms),
    cell: new Float64Array(9 * specs.length),
    pbc: new Uint8Array(3 * specs.length),
  };
  let atom = 0;
  specs.forEach((spec, s) => {
    const side = Math.cbrt(Math.max(spec.atoms, 1) / 0.8);
    const tilt = (): number => (random() - 0.5) * 0.6 * side;
    const rows = [side, 0, 0, tilt(), side, 0, tilt(), tilt(), side];
    const m = Math.max(1, Math.ceil(Math.cbrt(spec.atoms)));
    // The first `atoms` entries of a Fisher–Yates shuffle of the m³ grid sites.
    const sites = Array.from({ length: m ** 3 }, (_, k) => k);
    for (let k = 0; k < spec.atoms; k++) {
      const pick = k + Math.floor(random() * (sites.length - k));
      [sites[k], sites[pick]] = [sites[pick], sites[k]];
    }
    for (const site of sites.slice(0, spec.atoms)) {
      const f = [Math.floor(site / (m * m)), Math.floor(site / m) % m, site % m].map((g) => (g + 0.5 + 0.1 * (random() - 0.5)) / m);
      for (let k = 0; k < 3; k++) {
        if (spec.pbc[k] === 1 && random() < 0.3) f[k] += Math.floor(random() * 5) - 2;
      }
      for (let c = 0; c < 3; c++) geometry.positions[3 * atom + c] = f[0] * rows[c] + f[1] * rows[3 + c] + f[2] * rows[6 + c];
      geometry.atomicNumbers[atom] = species[Math.floor(random() * species.length)];
      atom++;
    }
    for (let k = 0; k < 3; k++) {
      const keep = spec.cell !== 'zero' && !(spec.zeroFree === true && spec.pbc[k] === 0);
      for (let c = 0; c < 3; c++) geometry.cell[9 * s + 3 * k + c] = keep ? rows[3 * k + c] : 0;
      geometry.pbc[3 * s + k] = spec.pbc[k];
    }
  });
  return geometry;
}

/** LAMMPS's fcc lattice at ρ = 0.8442 in a cells³ periodic box, jittered so forces do not vanish. */
function fccGeometry(seed: number, cells: number): Geometry {
  const random = randomSource(seed);
  const a = Math.cbrt(4 / 0.8442);
  const atoms = 4 * cells ** 3;
  const positions = new Float64Array(3 * atoms);
  const basis = [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]];
  let k = 0;
  for (let i = 0; i < cells; i++) for (let j = 0; j < cells; j++) for (let l = 0; l < cells; l++) for (const q of basis) {
    positions[k++] = (i + q[0]) * a + 0.04 * (random() - 0.5);
    positions[k++] = (j + q[1]) * a + 0.04 * (random() - 0.5);
    positions[k++] = (l + q[2]) * a + 0.04 * (random() - 0.5);
  }
  const L = cells * a;
  return {
    sizes: [atoms],
    positions,
    atomicNumbers: new Int32Array(atoms).fill(18),
    cell: Float64Array.of(L, 0, 0, 0, L, 0, 0, 0, L),
    pbc: Uint8Array.of(1, 1, 1),
  };
}

function cudaBuild(): NativeBinding {
  if (binding === undefined) throw new Error('build-cuda/Release/hookmd_cuda.node is missing: run `npm run native:cmake`');
  return binding;
}

function loadBatch(backend: 'cpu' | 'cuda', geometry: Geometry): NativeBatch {
  const batch = new (cudaBuild().NativeBatch)(backend);
  const ptr = new Int32Array(geometry.sizes.length + 1);
  geometry.sizes.forEach((size, s) => (ptr[s + 1] = ptr[s] + size));
  const systemIndex = new Int32Array(ptr[geometry.sizes.length]);
  geometry.sizes.forEach((_, s) => systemIndex.fill(s, ptr[s], ptr[s + 1]));
  batch.resize(systemIndex.length, geometry.sizes.length);
  batch.write('positions', geometry.positions);
  batch.write('masses', new Float64Array(systemIndex.length).fill(1));
  batch.write('atomicNumbers', geometry.atomicNumbers);
  batch.write('systemIndex', systemIndex);
  batch.write('numAtoms', Int32Array.from(geometry.sizes));
  batch.write('ptr', ptr);
  batch.write('cell', geometry.cell);
  batch.write('pbc', geometry.pbc);
  return batch;
}

type ModelFactory = (build: NativeBinding) => NativePotential;

const lennardJones: ModelFactory = (build) => new build.PairPotential('LennardJones', Float64Array.of(0, 0, 1, 1, 2.5), false, 0, SKIN);
const LJ_TABLE = Float64Array.of(18, 18, 1, 1, 2.5, 18, 36, 1.2, 1.1, 2.6, 36, 36, 1.5, 1.2, 2.7);
// A shift and a switch are exclusive (each brings E(rc) to 0), so the tables take one each.
const ljTableShifted: ModelFactory = (build) => new build.PairPotential('LennardJones', LJ_TABLE, true, 0, SKIN);
const ljTableSwitched: ModelFactory = (build) => new build.PairPotential('LennardJones', LJ_TABLE, false, 2.0, SKIN);
const morse: ModelFactory = (build) => new build.PairPotential('Morse', Float64Array.of(0, 0, 1, 3, 1.1, 2.5), true, 0, SKIN);
const morseTable: ModelFactory = (build) =>
  new build.PairPotential('Morse', Float64Array.of(18, 18, 1, 3, 1.1, 2.5, 18, 36, 0.8, 2.5, 1.2, 2.4, 36, 36, 1.3, 2.8, 1.0, 2.6), false, 1.8, SKIN);

interface Outcome {
  energy: Float64Array;
  forces: Float64Array;
  stress: Float64Array;
  pairs: number;
}

function outcome(batch: NativeBatch, model: NativePotential): Outcome {
  return {
    energy: batch.hostView('energy', false).slice(),
    forces: batch.hostView('forces', false).slice(),
    stress: batch.hostView('stress', false).slice(),
    pairs: model.neighborStats().pairs,
  };
}

/** Both backends, one compute each: their outcomes, batches and models. */
function computeBoth(geometry: Geometry, factory: ModelFactory) {
  const build = cudaBuild();
  const cpu = { batch: loadBatch('cpu', geometry), model: factory(build) };
  const gpu = { batch: loadBatch('cuda', geometry), model: factory(build) };
  cpu.model.compute(cpu.batch, true, true);
  gpu.model.compute(gpu.batch, true, true);
  return { cpu, gpu, expected: outcome(cpu.batch, cpu.model), actual: outcome(gpu.batch, gpu.model) };
}

/** The first disagreement beyond the tolerances of the header comment, or undefined. */
function firstDisagreement(sizes: readonly number[], expected: Outcome, actual: Outcome): string | undefined {
  if (actual.pairs !== expected.pairs) return `pairs: cuda ${actual.pairs}, cpu ${expected.pairs}`;
  let atom = 0;
  for (let s = 0; s < sizes.length; s++) {
    const e = expected.energy[s];
    if (!(Math.abs(actual.energy[s] - e) <= RTOL * Math.max(Math.abs(e), sizes[s]))) {
      return `system ${s}: energy ${actual.energy[s]}, cpu ${e}`;
    }
    const end = 3 * (atom + sizes[s]);
    let fmax = 1;
    for (let k = 3 * atom; k < end; k++) fmax = Math.max(fmax, Math.abs(expected.forces[k]));
    for (let k = 3 * atom; k < end; k++) {
      if (!(Math.abs(actual.forces[k] - expected.forces[k]) <= RTOL * fmax)) {
        return `system ${s}, atom ${Math.floor(k / 3)}: force ${actual.forces[k]}, cpu ${expected.forces[k]} (max |F| ${fmax})`;
      }
    }
    let smax = 0;
    for (let k = 9 * s; k < 9 * s + 9; k++) smax = Math.max(smax, Math.abs(expected.stress[k]));
    for (let k = 9 * s; k < 9 * s + 9; k++) {
      if (!(Math.abs(actual.stress[k] - expected.stress[k]) <= RTOL * smax) && actual.stress[k] !== expected.stress[k]) {
        return `system ${s}: stress[${k - 9 * s}] ${actual.stress[k]}, cpu ${expected.stress[k]}`;
      }
    }
    atom += sizes[s];
  }
  return undefined;
}

function expectParity(geometry: Geometry, factory: ModelFactory): ReturnType<typeof computeBoth> {
  const both = computeBoth(geometry, factory);
  expect(firstDisagreement(geometry.sizes, both.expected, both.actual)).toBeUndefined();
  return both;
}

const PERIODIC: [number, number, number] = [1, 1, 1];
const FREE: [number, number, number] = [0, 0, 0];
// Empty and one-atom systems, sizes either side of the single-bin search (256 atom-images), a slab, a wire
// with zero free rows, and a cluster inside a cell (stress −W/V) next to one without (stress 0).
const MIXED: SystemSpec[] = [
  { atoms: 0, pbc: PERIODIC },
  { atoms: 1, pbc: PERIODIC },
  { atoms: 2, pbc: PERIODIC },
  { atoms: 13, pbc: PERIODIC },
  { atoms: 0, pbc: FREE, cell: 'zero' },
  { atoms: 64, pbc: PERIODIC },
  { atoms: 300, pbc: PERIODIC },
  { atoms: 120, pbc: [1, 1, 0] },
  { atoms: 90, pbc: [1, 0, 0], zeroFree: true },
  { atoms: 40, pbc: FREE },
  { atoms: 1, pbc: FREE, cell: 'zero' },
  { atoms: 2000, pbc: PERIODIC },
  { atoms: 500, pbc: FREE, cell: 'zero' },
];

describe.skipIf(!cudaAvailable && !REQUIRE_CUDA)(
  'pair forces: CPU/GPU parity (needs a CUDA device; HOOKMD_REQUIRE_CUDA=1 turns the skip into a failure)',
  () => {
    it('has a usable CUDA device', () => {
      expect(cudaAvailable, 'the CUDA build is missing or reports no usable cuda backend').toBe(true);
    });

    it('matches on random triclinic batches of mixed sizes, slabs, wires and clusters (LJ)', () => {
      for (const seed of [1, 2, 3]) expectParity(makeGeometry(seed, MIXED), lennardJones);
    });

    it('matches in cells narrower than the cutoff (several images of each atom, its own included)', () => {
      const narrow: SystemSpec[] = [1, 2, 3, 4, 5, 8].map((atoms) => ({ atoms, pbc: PERIODIC }));
      narrow.push({ atoms: 6, pbc: [1, 1, 0] }, { atoms: 3, pbc: [1, 0, 0], zeroFree: true });
      expectParity(makeGeometry(4, narrow), lennardJones);
      expectParity(makeGeometry(5, narrow), morse);
    });

    it('matches on clusters without a cell', () => {
      const clusters: SystemSpec[] = [13, 1, 0, 38, 147, 600].map((atoms) => ({ atoms, pbc: FREE, cell: 'zero' }));
      const { actual } = expectParity(makeGeometry(6, clusters), lennardJones);
      expect(Array.from(actual.stress).every((value) => value === 0)).toBe(true);
    });

    it('matches multi-species tables, shifted and switched (LJ and Morse)', () => {
      expectParity(makeGeometry(7, MIXED, [18, 36]), ljTableShifted);
      expectParity(makeGeometry(8, MIXED, [18, 36]), ljTableSwitched);
      expectParity(makeGeometry(9, MIXED, [18, 36]), morseTable);
    });

    it('matches Morse on mixed batches', () => {
      expectParity(makeGeometry(16, MIXED), morse);
    });

    it('matches on a 1,000,000-atom fcc system', { timeout: 600_000 }, () => {
      expectParity(fccGeometry(10, 63), lennardJones);
    });

    it('matches on 70,000 small clusters', { timeout: 600_000 }, () => {
      const specs: SystemSpec[] = Array.from({ length: 70_000 }, () => ({ atoms: 13, pbc: FREE, cell: 'zero' as const }));
      expectParity(makeGeometry(11, specs), lennardJones);
    });

    it('moves no positions to the device when they have not changed, and rebuilds nothing', () => {
      const { gpu } = expectParity(makeGeometry(12, MIXED), lennardJones);
      const builds = gpu.model.neighborStats().builds;
      gpu.batch.resetTransferStats();
      gpu.model.compute(gpu.batch, true, true);
      expect(gpu.batch.transferStats()).toMatchObject({ toDeviceBytes: 0, toDeviceCopies: 0 });
      expect(gpu.model.neighborStats().builds).toBe(builds);
    });

    it('keeps its list within skin/2, rebuilds beyond it, and matches cpu both times', () => {
      const geometry = makeGeometry(13, MIXED);
      const { cpu, gpu } = expectParity(geometry, lennardJones);
      // Atom 40 sits in the 64-atom system 5; 0.1 < skin/2 = 0.15 < 0.1 + 0.2.
      for (const [step, rebuilds] of [[0.1, false], [0.2, true]] as const) {
        const builds = gpu.model.neighborStats().builds;
        geometry.positions[3 * 40] += step;
        for (const side of [cpu, gpu]) {
          side.batch.write('positions', geometry.positions);
          side.model.compute(side.batch, true, true);
        }
        expect(gpu.model.neighborStats().builds > builds, `moved by ${step}`).toBe(rebuilds);
        expect(firstDisagreement(geometry.sizes, outcome(cpu.batch, cpu.model), outcome(gpu.batch, gpu.model))).toBeUndefined();
      }
    });

    it('reports the cpu error codes for a singular periodic cell and a non-finite position', () => {
      const codeOf = (batch: NativeBatch, model: NativePotential): string | undefined => {
        try {
          model.compute(batch, true, false);
        } catch (error) {
          return (error as { code?: string }).code;
        }
        return undefined;
      };
      const singular = makeGeometry(14, [{ atoms: 4, pbc: PERIODIC }, { atoms: 4, pbc: PERIODIC }]);
      singular.cell.fill(0, 9, 18);
      const nonFinite = makeGeometry(15, [{ atoms: 4, pbc: FREE, cell: 'zero' }]);
      nonFinite.positions[4] = Number.NaN;
      for (const [geometry, code] of [[singular, 'SINGULAR_CELL'], [nonFinite, 'INVALID_POSITIONS']] as const) {
        for (const backend of ['cpu', 'cuda'] as const) {
          expect(codeOf(loadBatch(backend, geometry), lennardJones(cudaBuild())), backend).toBe(code);
        }
      }
    });
  },
);
