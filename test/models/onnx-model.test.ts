// OnnxModel against independent references: a Lennard-Jones ONNX graph (forces written out in the graph)
// against the native LennardJones, a many-body graph against a NumPy evaluation over ASE's neighbor list and
// finite differences of its own energy, and relaxation, NVE and runStream through it.
import { beforeAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { ConvergenceHook, EnergyDriftMonitorHook, FIRE, initializeVelocities, VelocityVerlet } from '../../lib/dynamics/index.js';
import { HostMemorySink } from '../../lib/io/index.js';
import { LennardJones, OnnxModel } from '../../lib/models/index.js';
import { backendInfo } from '../../lib/native/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';
import { makeOnnxModel, onnxSkipReason } from '../helpers/onnx.js';
import { LJ13_MINIMUM, ljBatch, ljFcc, perturbedLj13 } from '../dynamics/lj-systems.js';
import { fcc, maxAbs, maxDifference, rattled, rng } from './reference.js';

const argon = (positions: number[][], extra: Partial<System> = {}): System => ({ symbols: positions.map(() => 'Ar'), positions, ...extra });

/** fcc with n³ cells, sheared by a random triclinic matrix and rattled: a random triclinic periodic system. */
function triclinic(n: number, seed: number): System {
  const random = rng(seed);
  const base = fcc(1.6, n);
  const shear = [[1, 0.3 * (random() - 0.5), 0.3 * (random() - 0.5)], [0, 1, 0.3 * (random() - 0.5)], [0, 0, 1]];
  const map = (v: number[]): number[] => [0, 1, 2].map((c) => v[0] * shear[0][c] + v[1] * shear[1][c] + v[2] * shear[2][c]);
  return argon(rattled(base.positions.map(map), 0.08, seed), { cell: base.cell.map(map), pbc: true });
}

/** |a − b| ≤ tolerance · max(1, |b|) for every value. */
function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, tolerance: number): void {
  expect(a.length).toBe(b.length);
  expect(maxDifference(a, b)).toBeLessThanOrEqual(tolerance * Math.max(1, maxAbs(b)));
}

const skip = onnxSkipReason !== '';
let ljPath: string;
let lj32Path: string;
let prefixedPath: string;
let embedPath: string;

beforeAll(() => {
  if (skip) return;
  ljPath = makeOnnxModel('lj.onnx', 'lj', ['--shift']);
  lj32Path = makeOnnxModel('lj32.onnx', 'lj', ['--shift', '--float32']);
  prefixedPath = makeOnnxModel('lj-prefixed.onnx', 'lj', ['--shift', '--prefix', 'my_']);
  embedPath = makeOnnxModel('embed.onnx', 'embed');
}, 60_000);

describe.skipIf(skip)(`OnnxModel: a Lennard-Jones graph ${onnxSkipReason}`, () => {
  const native = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, shift: true });

  it('matches the native LennardJones to 1e-10 on random triclinic batches in float64 (energy, forces, stress)', async () => {
    const model = await OnnxModel.load(ljPath, { cutoff: 2.5 });
    expect(model.dtype).toBe('float64');
    for (const seed of [1, 2, 3]) {
      const systems = [triclinic(3, seed), triclinic(2, seed + 10), argon([[0, 0, 0], [1.1, 0.2, 0], [0.3, 1.0, 0.4], [0.9, 0.8, 1.2]], { cell: [[1.9, 0, 0], [0.5, 1.8, 0], [0.2, -0.4, 2.0]], pbc: true }), triclinic(4, seed + 20)];
      const batch = ljBatch(systems);
      const reference = ljBatch(systems);
      await model.compute(batch, { stress: true });
      native().compute(reference, { stress: true });
      expectClose(batch.read('energy'), reference.read('energy'), 1e-10);
      expectClose(batch.read('forces'), reference.read('forces'), 1e-10);
      expectClose(batch.read('stress'), reference.read('stress'), 1e-10);
      expect(Array.from(batch.resultValid('stress'))).toEqual(systems.map(() => 1));
    }
    await model.close();
  });

  it('reads float32 from the model and converts at the boundary', async () => {
    const model = await OnnxModel.load(lj32Path, { cutoff: 2.5 });
    expect(model.dtype).toBe('float32');
    const systems = [triclinic(3, 4)];
    const [batch, reference] = [ljBatch(systems), ljBatch(systems)];
    await model.compute(batch);
    native().compute(reference);
    expectClose(batch.read('forces'), reference.read('forces'), 2e-4);
    expect(Math.abs(batch.energy[0] - reference.energy[0])).toBeLessThan(2e-5 * Math.abs(reference.energy[0]));
    await expect(OnnxModel.load(lj32Path, { cutoff: 2.5, dtype: 'float64' })).rejects.toMatchObject({ code: 'ONNX_DTYPE_MISMATCH' });
  });

  it('maps other input and output names, and refuses a model whose inputs it cannot feed', async () => {
    await expect(OnnxModel.load(prefixedPath, { cutoff: 2.5 })).rejects.toMatchObject({ code: 'ONNX_UNKNOWN_INPUT', details: { value: 'my_positions' } });
    const names = { positions: 'my_positions', cell: 'my_cell', system_index: 'my_system_index', edge_index: 'my_edge_index', edge_shift: 'my_edge_shift' };
    await expect(OnnxModel.load(prefixedPath, { cutoff: 2.5, inputs: names })).rejects.toMatchObject({ code: 'ONNX_MISSING_OUTPUT' });
    const model = await OnnxModel.load(prefixedPath, { cutoff: 2.5, inputs: names, outputs: { energy: 'my_energy', forces: 'my_forces', stress: 'my_stress' } });
    const systems = [triclinic(2, 5)];
    const [batch, reference] = [ljBatch(systems), ljBatch(systems)];
    await model.compute(batch, { stress: true });
    native().compute(reference, { stress: true });
    expectClose(batch.read('stress'), reference.read('stress'), 1e-10);
    await expect(OnnxModel.load(ljPath, { cutoff: 2.5, inputs: { coordinates: 'x' } as never })).rejects.toMatchObject({ code: 'UNKNOWN_OPTION' });
    await expect(OnnxModel.load(ljPath, { cutoff: -1 })).rejects.toMatchObject({ code: 'INVALID_CUTOFF' });
    await expect(OnnxModel.load('/nonexistent/model.onnx', { cutoff: 2.5 })).rejects.toMatchObject({ code: 'ONNX_LOAD_FAILED' });
  });

  it('gives a typed error naming the system when the model returns a non-finite value, and loses no state', async () => {
    const model = await OnnxModel.load(ljPath, { cutoff: 2.5 });
    const batch = ljBatch([triclinic(2, 6), argon([[0, 0, 0], [0, 0, 0], [1.2, 0, 0]])]);
    await expect(model.compute(batch)).rejects.toMatchObject({ code: 'INVALID_MODEL_OUTPUT', details: { field: 'energy', system: 1 } });
    expect(Array.from(batch.resultValid('energy'))).toEqual([0, 0]);
  });

  it('runs on the CPU provider on a cpu backend, and says so in backendInfo()', async () => {
    const model = await OnnxModel.load(ljPath, { cutoff: 2.5, name: 'lj-note' });
    expect(model.executionProvider).toBe('cpu');
    expect(backendInfo().notes.some((note) => note.startsWith('OnnxModel lj-note: onnxruntime') && note.includes('CPU execution provider'))).toBe(true);
  });
});

// The LJ13 minimum with every pair energy shifted to 0 at 2.5σ: all 78 pairs of the icosahedron lie within 2.5σ.
const LJ13_SHIFTED_MINIMUM = LJ13_MINIMUM - 78 * 4 * (2.5 ** -12 - 2.5 ** -6);

describe.skipIf(skip)(`OnnxModel in the engines ${onnxSkipReason}`, () => {
  it('relaxes LJ13 clusters with FIRE to the global minimum, and runSync refuses it', async () => {
    const model = await OnnxModel.load(ljPath, { cutoff: 2.5, skin: 0.3 });
    const batch = ljBatch([perturbedLj13(0.1), perturbedLj13(0.1, 1.9)]);
    const reference = ljBatch([perturbedLj13(0.1), perturbedLj13(0.1, 1.9)]);
    const fire = (m: OnnxModel | LennardJones): FIRE => new FIRE({ model: m, convergence: ConvergenceHook.fromFmax(1e-4) });
    const result = await fire(model).run(batch, { steps: 3000 });
    await fire(new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, shift: true })).run(reference, { steps: 3000 });
    expect(Array.from(result.converged)).toEqual([1, 1]);
    expectClose(batch.read('energy'), reference.read('energy'), 1e-9);
    for (const e of batch.read('energy')) expect(e).toBeCloseTo(LJ13_SHIFTED_MINIMUM, 5);
    expect(() => fire(model).runSync(ljBatch([perturbedLj13(0.1)]), { steps: 10 })).toThrow(expect.objectContaining({ code: 'ASYNC_MODEL_IN_SYNC_RUN' }));
  });

  it('conserves energy in NVE as the native model does, on the same trajectory, rebuilding its lists only when stale', async () => {
    const model = await OnnxModel.load(ljPath, { cutoff: 2.5, skin: 0.3 });
    const run = async (m: OnnxModel | LennardJones): Promise<{ batch: Batch; drift: EnergyDriftMonitorHook }> => {
      const batch = ljBatch([ljFcc(4)]);
      initializeVelocities(batch, { temperature: 1.44, seed: 5, exact: true });
      const drift = new EnergyDriftMonitorHook({ frequency: 20 });
      await new VelocityVerlet({ model: m, dt: 0.005, hooks: [drift] }).run(batch, { steps: 400 });
      return { batch, drift };
    };
    const onnx = await run(model);
    const native = await run(new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, shift: true, skin: 0.3 }));
    expect(maxDifference(onnx.batch.read('positions'), native.batch.read('positions'))).toBeLessThan(1e-7);
    const [onnxDrift, nativeDrift] = [onnx.drift.maxRelativeDrift(), native.drift.maxRelativeDrift()];
    expect(onnxDrift).toBeLessThan(1e-3);
    expect(Math.abs(onnxDrift - nativeDrift)).toBeLessThan(1e-6);
    const builds = model.neighborStats().builds;
    expect(builds).toBeGreaterThan(1);
    expect(builds).toBeLessThan(60);
  });

  it('streams systems through runStream', async () => {
    const model = await OnnxModel.load(ljPath, { cutoff: 2.5 });
    const sink = new HostMemorySink();
    const fire = new FIRE({ model, convergence: ConvergenceHook.fromFmax(1e-3) });
    const result = await fire.runStream([0, 1, 2, 3, 4].map((k) => perturbedLj13(0.1, k)), { sinks: [sink], maxAtoms: 26, units: 'lj' });
    expect(result.processed).toBe(5);
    expect(result.converged).toBe(5);
    for (const system of sink.read()) expect(system.energy).toBeCloseTo(LJ13_SHIFTED_MINIMUM, 4);
  });
});

// The many-body model's parameters, as scripts/make-onnx-models.py writes them by default.
const EMBED = { cutoff: 5.0, A: 1.2, c: 0.05, beta: 2.0, B: 0.3, gamma: 3.0, r0: 2.55 };

const NUMPY_EMBED = `
import json, sys
import numpy as np
from ase import Atoms
from ase.neighborlist import neighbor_list
p = json.load(sys.stdin)
k = p['parameters']
rc = k['cutoff']
out = []
for s in p['systems']:
    atoms = Atoms(numbers=s['numbers'], positions=s['positions'], cell=s['cell'], pbc=s['pbc'])
    n = len(atoms)
    i, j, D = neighbor_list('ijD', atoms, rc)
    r = np.linalg.norm(D, axis=1)
    u = 1 - r**2 / rc**2
    fc, dfc = u * u, -4 * r / rc**2 * u
    ef = np.exp(-k['beta'] * (r - k['r0']))
    f, df = ef * fc, -k['beta'] * ef * fc + ef * dfc
    ep = k['B'] * np.exp(-k['gamma'] * (r - k['r0']))
    phi, dphi = ep * fc, -k['gamma'] * ep * fc + ep * dfc
    rho = np.bincount(i, weights=f, minlength=n)
    root = np.sqrt(rho + k['c'])
    energy = np.sum(-k['A'] * (root - np.sqrt(k['c']))) + 0.5 * np.sum(phi)
    dF = -k['A'] / (2 * root)
    forces = np.zeros((n, 3))
    np.add.at(forces, i, (((dF[i] + dF[j]) * df + dphi) / r)[:, None] * D)
    W = np.einsum('e,ea,eb->ab', (0.5 * dphi + dF[i] * df) / r, D, D)
    volume = abs(np.linalg.det(atoms.cell[:])) if atoms.pbc.any() else 0.0
    stress = W / volume if volume > 0 else np.zeros((3, 3))
    out.append({'energy': float(energy), 'forces': forces.ravel().tolist(), 'stress': stress.ravel().tolist()})
print(json.dumps(out))
`;

describe.skipIf(skip || aseSkipReason !== '')(`OnnxModel: a many-body graph (embedded pair density) ${onnxSkipReason || aseSkipReason}`, () => {
  const copper = (n: number, seed: number, shear: number): System => {
    const base = fcc(3.61, n);
    const map = (v: number[]): number[] => [v[0] + shear * v[1], v[1], v[2] - 0.5 * shear * v[0]];
    return { symbols: base.positions.map(() => 'Cu'), positions: rattled(base.positions.map(map), 0.1, seed), cell: base.cell.map(map), pbc: true };
  };
  const systems = [copper(2, 1, 0.1), copper(3, 2, -0.15), { symbols: Array(13).fill('Cu'), positions: rattled(perturbedLj13(0).positions as number[][], 0.05, 3).map((p) => p.map((v) => 2.3 * v)) }];

  it('matches a NumPy evaluation of the same formula over ASE’s neighbor list (energy, forces, stress)', async () => {
    const model = await OnnxModel.load(embedPath, { cutoff: EMBED.cutoff });
    const batch = Batch.fromSystems(systems);
    await model.compute(batch, { stress: true });
    const reference = runAse<Array<{ energy: number; forces: number[]; stress: number[] }>>(NUMPY_EMBED, {
      parameters: EMBED,
      systems: batch.toSystems().map((s) => ({ numbers: s.atomicNumbers, positions: s.positions, cell: s.cell, pbc: s.pbc })),
    });
    const ptr = batch.ptr;
    reference.forEach((ref, s) => {
      expect(Math.abs(batch.energy[s] - ref.energy)).toBeLessThan(1e-10 * Math.abs(ref.energy));
      expectClose(batch.read('forces').subarray(3 * ptr[s], 3 * ptr[s + 1]), ref.forces, 1e-10);
      expectClose(batch.read('stress').subarray(9 * s, 9 * s + 9), ref.stress, 1e-10);
    });
  });

  it('returns forces that are the gradient of its energy (central differences)', async () => {
    const model = await OnnxModel.load(embedPath, { cutoff: EMBED.cutoff });
    const batch = Batch.fromSystems([systems[1]]);
    await model.compute(batch);
    const forces = batch.read('forces').slice();
    const h = 1e-5;
    for (const k of [0, 4, 17, 50, 80]) {
      const energyAt = async (delta: number): Promise<number> => {
        const probe = Batch.fromSystems([systems[1]]);
        probe.positions[k] += delta;
        await model.compute(probe);
        return probe.energy[0];
      };
      const numeric = -((await energyAt(h)) - (await energyAt(-h))) / (2 * h);
      expect(Math.abs(numeric - forces[k])).toBeLessThan(1e-6);
    }
  });
});

describe.skipIf(skip)(`OnnxModel failing while it runs (issue 39, item 21) ${onnxSkipReason}`, () => {
  it('is ONNX_RUN_FAILED naming the model, the call and the batch, with onnxruntime\'s error as cause', async () => {
    const path = makeOnnxModel('broken.onnx', 'broken');
    const model = await OnnxModel.load(path, { cutoff: 2.5 });
    const error = await model.compute(ljBatch([perturbedLj13(0.05)])).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({
      code: 'ONNX_RUN_FAILED',
      message: expect.stringMatching(/^broken\.onnx\.compute: onnxruntime failed while running .*broken\.onnx \(compute call 1, 1 systems, 13 atoms\): /),
      details: { model: 'broken.onnx', path, call: 1, systems: 1, atoms: 13 },
    });
    expect((error as Error).cause).toBeDefined();
    // In an engine the failure stays typed.
    await expect(new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.01) }).run(ljBatch([perturbedLj13(0.05)]), { steps: 5 })).rejects.toMatchObject({ code: 'ONNX_RUN_FAILED' });
  });
});
