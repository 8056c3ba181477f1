// Optimizers keep their state to themselves (docs/dynamics.md, "Optimizer state"): FIRE's and FIRE2's
// velocities are bookkeeping of the minimizer, not motion, so they never reach batch.velocities, where the
// next engine, the temperature and the extxyz momenta would read them as motion.
import { describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import {
  CellFilter,
  ConvergenceHook,
  DynamicsStage,
  FIRE,
  FIRE2,
  GradientDescent,
  LBFGS,
  VelocityVerlet,
  fuse,
  initializeVelocities,
  temperatures,
  type Dynamics,
} from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import type { NativeBatch, NativeBinding } from '../../lib/native/binding.js';
import { loadCpuBinding, makeBatch, randomBatchData } from '../backends/support.js';

interface NativeStepper {
  advance(maxSteps: number, budgetSeconds: number, pauseOnConverge: boolean): { steps: number };
  state(): Float64Array;
  loadState(state: Float64Array): void;
}
type StepperConstructor = new (batch: NativeBatch, model: null, integrator: string, parameters: Record<string, Float64Array>, exitStatus: number) => NativeStepper;

// Argon in metal units (eV, Å): the LJ parameters ASE's and LAMMPS's argon examples use.
const argonModel = (): LennardJones => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });
const rattledArgon = (seed: number): ReturnType<typeof bulk> => rattle(repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [3, 3, 3]), 0.1, seed);

const OPTIMIZERS: ReadonlyArray<[string, () => Dynamics]> = [
  ['FIRE', () => new FIRE({ model: argonModel(), convergence: ConvergenceHook.fromFmax(0.05) })],
  ['FIRE2', () => new FIRE2({ model: argonModel(), convergence: ConvergenceHook.fromFmax(0.05) })],
  ['GradientDescent', () => new GradientDescent({ model: argonModel(), stepSize: 0.5, convergence: ConvergenceHook.fromFmax(0.05) })],
  ['LBFGS', () => new LBFGS({ model: argonModel(), convergence: ConvergenceHook.fromFmax(0.05) })],
  ['FIRE with a cell filter', () => new FIRE({ model: argonModel(), cellFilter: new CellFilter(), convergence: ConvergenceHook.fromFmaxAndStress(0.05, 5e-4) })],
  ['LBFGS with a cell filter', () => new LBFGS({ model: argonModel(), cellFilter: new CellFilter(), convergence: ConvergenceHook.fromFmaxAndStress(0.05, 5e-4) })],
];

describe('optimizers keep their state to themselves', () => {
  it.each(OPTIMIZERS)('%s leaves the batch velocities at zero, also of input that was moving', async (_, make) => {
    const batch = Batch.fromSystems([rattledArgon(1), rattledArgon(2)]);
    initializeVelocities(batch, { temperature: 50, seed: 3 });
    let seen = 0;
    const engine = make();
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: (ctx) => { seen = Math.max(seen, ...ctx.scalars.temperature); } });
    await engine.run(batch, { steps: 40 });
    expect(batch.read('velocities').every((v) => v === 0)).toBe(true);
    // What hooks see during the relaxation is no motion either.
    expect(seen).toBe(0);
  });

  it('a rattled Ar crystal relaxed by FIRE.run and then run by VelocityVerlet.run stays cold and in place', async () => {
    const batch = Batch.fromSystems([rattledArgon(4)]);
    const relaxed = await new FIRE({ model: argonModel(), convergence: ConvergenceHook.fromFmax(0.05) }).run(batch, { steps: 2000 });
    expect(relaxed.converged[0]).toBe(1);
    const start = batch.read('positions').slice();
    // No initializeVelocities: the NVE run starts from rest, at forces below 0.05 eV/Å.
    await new VelocityVerlet({ model: argonModel(), dt: 5 }).run(batch, { steps: 400 });
    expect(temperatures(batch)[0]).toBeLessThan(5);
    const moved = Math.max(...batch.read('positions').map((x, k) => Math.abs(x - start[k])));
    expect(moved).toBeLessThan(0.2);
  });

  it.each(['FIRE', 'FIRE2', 'CellFilter:FIRE'])('%s: state() holds the velocities, so a stepper restored on a batch at rest goes on alike', (type) => {
    const native = loadCpuBinding() as NativeBinding;
    const Stepper = (native as unknown as { NativeStepper: StepperConstructor }).NativeStepper;
    const sizes = [5, 13, 1, 0, 7];
    const perSystem = (value: number): Float64Array => new Float64Array(sizes.length).fill(value);
    const parameters: Record<string, Float64Array> = {
      dt: perSystem(0.1), dtMax: perSystem(1), dtMin: perSystem(0.002), maxStep: perSystem(0.2), nMin: perSystem(5), nDelay: perSystem(5),
      fInc: perSystem(1.1), fDec: perSystem(0.5), alphaStart: perSystem(0.1), fAlpha: perSystem(0.99),
      scalarPressure: perSystem(0), hydrostaticStrain: perSystem(0), cellFactor: perSystem(0),
    };
    const data = randomBatchData(11, sizes);
    // No model: the forces stay as written, so both steppers take exactly the same steps.
    const a = makeBatch(native, 'cpu', data);
    a.write('cell', Float64Array.from({ length: 9 * sizes.length }, (_, k) => (k % 9) % 4 === 0 ? 20 + (k % 7) : 0.5));
    // Periodic in x, y and z: a cell filter refuses to scale the vacuum of anything else.
    a.write('pbc', new Uint8Array(3 * sizes.length).fill(1));
    const first = new Stepper(a, null, type, parameters, 1);
    first.advance(7, Infinity, false);
    expect(Array.from(a.hostView('velocities', false)).every((v) => v === 0)).toBe(true);
    const b = makeBatch(native, 'cpu', { ...data, positions: a.hostView('positions', false).slice(), velocities: new Float64Array(data.velocities.length) });
    b.write('cell', a.hostView('cell', false).slice());
    b.write('pbc', a.hostView('pbc', false).slice());
    const second = new Stepper(b, null, type, parameters, 1);
    second.loadState(first.state());
    first.advance(5, Infinity, false);
    second.advance(5, Infinity, false);
    expect(Array.from(b.hostView('positions', false))).toEqual(Array.from(a.hostView('positions', false)));
    expect(Array.from(second.state())).toEqual(Array.from(first.state()));
  });
});

describe('dynamics stages initialize velocities when asked', () => {
  it('a fused FIRE → VelocityVerlet starts NVE from rest, or from Maxwell–Boltzmann with velocities: { temperature, seed }', async () => {
    const run = async (velocities?: { temperature: number; seed: number }): Promise<Float64Array> => {
      const batch = Batch.fromSystems([rattledArgon(6), rattledArgon(7)]);
      const nve = new VelocityVerlet({ model: argonModel(), dt: 5, ...(velocities === undefined ? {} : { velocities }) });
      const pipeline = fuse(new FIRE({ model: argonModel(), convergence: ConvergenceHook.fromFmax(0.05) }), nve).withBudgets([2000, 20]);
      const result = await pipeline.run(batch, { steps: 5000 });
      expect(Array.from(batch.read('status'))).toEqual([2, 2]);
      expect(Array.from(result.converged)).toEqual([1, 1]);
      return temperatures(batch);
    };
    for (const t of await run()) expect(t).toBeLessThan(5);
    // 20 steps of 5 fs: about half the kinetic energy has gone into the potential, as in any crystal.
    for (const t of await run({ temperature: 60, seed: 2 })) {
      expect(t).toBeGreaterThan(15);
      expect(t).toBeLessThan(60);
    }
  });

  it('VelocityVerlet({ velocities }) draws them once per system, reproducibly from the seed', async () => {
    const draw = async (seed: number, steps: number): Promise<Float64Array> => {
      const batch = Batch.fromSystems([rattledArgon(8)]);
      const nve = new VelocityVerlet({ model: argonModel(), dt: 2, velocities: { temperature: 40, seed } });
      await nve.run(batch, { steps });
      return batch.read('velocities').slice();
    };
    const a = await draw(3, 1);
    expect(Array.from(await draw(3, 1))).toEqual(Array.from(a));
    expect(Array.from(await draw(4, 1))).not.toEqual(Array.from(a));
    expect(() => new VelocityVerlet({ model: argonModel(), dt: 2, velocities: { temperature: -1 } })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new VelocityVerlet({ model: argonModel(), dt: 2, velocities: { temperture: 10 } as never })).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
  });
});
