// GPU parity of the integrators and native built-in hooks (issue 12): whole runs on the cuda backend against
// the cpu reference, through the public API of a fresh library copy per backend, plus checkpoints moved
// between backends through the native stepper. Skips without a usable GPU; HOOKMD_REQUIRE_CUDA=1 turns the
// skip into a failure.
//
// Tolerances: the device folds per-system sums as fixed trees (cpu: atom order) and the pair forces come from
// another loop, so trajectories agree to rounding, not bit for bit. Chaotic runs (liquids) are compared by
// their statistics; relaxations and short runs by their values.
import { describe, expect, it, vi } from 'vitest';

import type { DynamicsHookContext } from '../../lib/index.js';
import type { NativeBatch, NativeBinding } from '../../lib/native/binding.js';
import { LJ13_MINIMUM, ljFcc, perturbedLj13 } from '../dynamics/lj-systems.js';
import { loadCudaBinding, makeBatch, randomBatchData, REQUIRE_CUDA } from './support.js';

type Hookmd = typeof import('../../lib/index.js');
type Backend = 'cpu' | 'cuda';

const binding = loadCudaBinding();
const cudaAvailable = binding?.backends().find((entry) => entry.name === 'cuda')?.available === true;
const skip = !cudaAvailable && !REQUIRE_CUDA;

/** A fresh copy of the library bound to `backend` (the backend is chosen once per module graph). */
async function libraryOn(backend: Backend): Promise<Hookmd> {
  vi.resetModules();
  const hookmd = await import('../../lib/index.js');
  hookmd.configureNative({ backend });
  return hookmd;
}

/** Runs `scenario` on cpu and on cuda, each on its own library copy. */
async function onBoth<T>(scenario: (hookmd: Hookmd) => Promise<T>): Promise<{ cpu: T; cuda: T }> {
  const cpu = await scenario(await libraryOn('cpu'));
  const cuda = await scenario(await libraryOn('cuda'));
  return { cpu, cuda };
}

/** Largest |a − b| over two equally long arrays. */
function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

const lj = (hookmd: Hookmd, cutoff = 2.5) => new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff });

describe.skipIf(skip)('integrators: CPU/GPU parity over whole runs (needs a CUDA device; HOOKMD_REQUIRE_CUDA=1 turns the skip into a failure)', () => {
  it('FIRE takes the same number of steps per system on 64 perturbed LJ13 clusters', async () => {
    const { cpu, cuda } = await onBoth(async (hookmd) => {
      const batch = hookmd.Batch.fromSystems(Array.from({ length: 64 }, (_, i) => perturbedLj13(0.15, 0.1 * i)), { units: 'lj' });
      const fire = new hookmd.FIRE({ model: lj(hookmd, 10), convergence: hookmd.ConvergenceHook.fromFmax(1e-4) });
      const steps = new Array<number>(64).fill(-1);
      fire.register({
        stage: hookmd.DynamicsStage.ON_CONVERGE, frequency: 1,
        call: (ctx: DynamicsHookContext) => ctx.convergedMask?.forEach((c, s) => { if (c === 1 && steps[s] < 0) steps[s] = ctx.stepCount; }),
      });
      const result = await fire.run(batch, { steps: 5000 });
      return { steps, converged: Array.from(result.converged), energy: Array.from(batch.read('energy')) };
    });
    expect(cuda.converged.every((c) => c === 1)).toBe(true);
    expect(cuda.steps).toEqual(cpu.steps);
    for (const e of cuda.energy) expect(e).toBeCloseTo(LJ13_MINIMUM, 5);
  });

  it("VelocityVerlet's energy drift over 1,000 in.lj steps is within 10% of cpu's", async () => {
    const { cpu, cuda } = await onBoth(async (hookmd) => {
      const batch = hookmd.Batch.fromSystems([ljFcc(10)], { units: 'lj' });
      hookmd.initializeVelocities(batch, { temperature: 1.44, seed: 87287, exact: true });
      const drift = new hookmd.EnergyDriftMonitorHook({ frequency: 100 });
      await new hookmd.VelocityVerlet({ model: lj(hookmd), dt: 0.005, hooks: [drift] }).run(batch, { steps: 1001 });
      return { start: drift.history[0].total[0], drift: drift.relativeDrift()[0] };
    });
    // Both start from the same state, so their first total energies agree to rounding.
    expect(Math.abs(cuda.start - cpu.start)).toBeLessThan(1e-9 * Math.abs(cpu.start));
    expect(Math.abs(cuda.drift - cpu.drift)).toBeLessThanOrEqual(0.1 * cpu.drift);
  });

  // The criterion of test/dynamics/thermostats.test.ts, which holds it on cpu.
  it.each([
    ['Langevin (BAOAB)', (hookmd: Hookmd) => new hookmd.Langevin({ model: lj(hookmd), dt: 0.005, temperature: 1.5, friction: 1, seed: 11 })],
    ['Nosé–Hoover chain (length 3)', (hookmd: Hookmd) => new hookmd.NoseHooverChain({ model: lj(hookmd), dt: 0.005, temperature: 1.5, tdamp: 0.5 })],
  ])('%s holds a 4,000-atom LJ liquid at the target temperature (within 2 per cent) on cuda, as on cpu', async (_, make) => {
    const hookmd = await libraryOn('cuda');
    const batch = hookmd.Batch.fromSystems([ljFcc(10)], { units: 'lj' });
    hookmd.initializeVelocities(batch, { temperature: 1.5, seed: 3 });
    const engine = make(hookmd);
    await engine.run(batch, { steps: 1000 });
    const samples: number[] = [];
    engine.register({ stage: hookmd.DynamicsStage.AFTER_STEP, frequency: 10, call: () => { samples.push(hookmd.temperatures(batch)[0]); } });
    await engine.run(batch, { steps: 3000 });
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    expect(Math.abs(mean - 1.5) / 1.5).toBeLessThan(0.02);
  });

  it('a runStream of 10,000 systems puts out each exactly once', async () => {
    const hookmd = await libraryOn('cuda');
    const sink = new hookmd.HostMemorySink();
    function* source() {
      for (let i = 0; i < 10_000; i++) {
        const n = 2 + (i % 5);
        yield { symbols: Array(n).fill('Ar'), positions: Array.from({ length: n }, (_, k) => [1.3 * k, 0.2 * Math.sin(i + k), 0.2 * Math.cos(2 * i + k)]), info: { tag: i } };
      }
    }
    const fire = new hookmd.FIRE({ model: lj(hookmd, 3), convergence: hookmd.ConvergenceHook.fromFmax(1e-3) });
    const result = await fire.runStream(source(), { sinks: [sink], maxAtoms: 512, refillEvery: 5, maxSteps: 2000, units: 'lj' });
    const out = sink.read();
    expect(result.processed).toBe(10_000);
    expect(out).toHaveLength(10_000);
    const ids = new Set(out.map((system) => system.info?.systemId as number));
    expect(ids.size).toBe(10_000);
    for (const system of out) expect(system.info?.tag).toBe(system.info?.systemId);
    expect(result.converged).toBeGreaterThan(9_900);
  }, 120_000);
});

describe.skipIf(skip)('native built-in hooks: CPU/GPU parity', () => {
  it('MaxForceClampHook caps |F| and gives cpu’s relaxation', async () => {
    const { cpu, cuda } = await onBoth(async (hookmd) => {
      const batch = hookmd.Batch.fromSystems([perturbedLj13(0.3), perturbedLj13(0.25, 2)], { units: 'lj' });
      let largest = 0;
      const probe = { stage: hookmd.DynamicsStage.AFTER_COMPUTE, frequency: 1, order: 10, call: (ctx: DynamicsHookContext) => { largest = Math.max(largest, ...ctx.scalars.fmax); } };
      await new hookmd.FIRE({ model: lj(hookmd), hooks: [new hookmd.MaxForceClampHook({ maxForce: 0.5 }), probe] }).run(batch, { steps: 20 });
      return { largest, positions: Array.from(batch.read('positions')) };
    });
    expect(cuda.largest).toBeLessThanOrEqual(0.5 + 1e-12);
    expect(maxDifference(cuda.positions, cpu.positions)).toBeLessThan(1e-9);
  });

  it('WrapPeriodicHook keeps every coordinate in the cell and follows cpu’s trajectory', async () => {
    const { cpu, cuda } = await onBoth(async (hookmd) => {
      const batch = hookmd.Batch.fromSystems([ljFcc(3)], { units: 'lj' });
      hookmd.initializeVelocities(batch, { temperature: 3, seed: 1 });
      await new hookmd.VelocityVerlet({ model: lj(hookmd), dt: 0.005, hooks: [new hookmd.WrapPeriodicHook()] }).run(batch, { steps: 200 });
      return { length: batch.read('cell')[0], positions: Array.from(batch.read('positions')) };
    });
    for (const x of cuda.positions) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(cuda.length);
    }
    // Compared through the periodic image, so an atom wrapped at 0 on one backend and at L on the other agrees.
    const apart = cuda.positions.map((x, i) => { const d = Math.abs(x - cpu.positions[i]); return Math.min(d, cuda.length - d); });
    expect(Math.max(...apart)).toBeLessThan(1e-7);
  });

  it('FreezeAtomsHook holds masked atoms bit for bit under Langevin, which draws cpu’s noise', async () => {
    const { cpu, cuda } = await onBoth(async (hookmd) => {
      const batch = hookmd.Batch.fromSystems([ljFcc(2), ljFcc(2)], { units: 'lj' });
      hookmd.initializeVelocities(batch, { temperature: 1, seed: 2 });
      const before = Array.from(batch.read('positions'));
      const hooks = [new hookmd.FreezeAtomsHook({ indices: [0, 5, 40] })];
      await new hookmd.Langevin({ model: lj(hookmd), dt: 0.005, temperature: 1, friction: 1, seed: 1, hooks }).run(batch, { steps: 100 });
      return { before, after: Array.from(batch.read('positions')) };
    });
    for (const i of [0, 5, 40]) for (let c = 0; c < 3; c++) expect(cuda.after[3 * i + c]).toBe(cuda.before[3 * i + c]);
    expect(cuda.after[3]).not.toBe(cuda.before[3]);
    expect(maxDifference(cuda.after, cpu.after)).toBeLessThan(1e-8);
  });

  it('NaNDetectorHook raises NAN_DETECTED naming the systems and the step', async () => {
    const hookmd = await libraryOn('cuda');
    const batch = hookmd.Batch.fromSystems([ljFcc(2), ljFcc(2)], { units: 'lj' });
    const poison = {
      stage: hookmd.DynamicsStage.AFTER_PRE_UPDATE, frequency: 1,
      call: (ctx: DynamicsHookContext) => { if (ctx.stepCount === 3) ctx.batch.positions[3 * 40] = NaN; },
    };
    const md = new hookmd.VelocityVerlet({ model: lj(hookmd), dt: 0.005, hooks: [poison, new hookmd.NaNDetectorHook()] });
    await expect(md.run(batch, { steps: 10 })).rejects.toMatchObject({ code: 'NAN_DETECTED', message: expect.stringMatching(/step 3 in systems 1 \(systemId 1\): positions of atom 8 are NaN/) });
  });
});

// Checkpoints through the native stepper: no model (the forces stay as written), so both backends take
// exactly the same steps on the same data.
interface NativeStepper {
  advance(maxSteps: number, budgetSeconds: number, pauseOnConverge: boolean): { steps: number };
  state(): Float64Array;
  loadState(state: Float64Array): void;
  stepCount: number;
}
type StepperConstructor = new (batch: NativeBatch, model: null, integrator: string, parameters: Record<string, Float64Array>, exitStatus: number) => NativeStepper;

const SIZES = [5, 13, 1, 40, 0, 7];
const perSystem = (value: number): Float64Array => new Float64Array(SIZES.length).fill(value);
const fireParameters = (delay: string): Record<string, Float64Array> => ({
  dt: perSystem(0.1), dtMax: perSystem(1), dtMin: perSystem(0.002), maxStep: perSystem(0.2), [delay]: perSystem(5),
  fInc: perSystem(1.1), fDec: perSystem(0.5), alphaStart: perSystem(0.1), fAlpha: perSystem(0.99),
});
const INTEGRATORS: ReadonlyArray<[string, Record<string, Float64Array>]> = [
  ['FIRE', fireParameters('nMin')],
  ['FIRE2', fireParameters('nDelay')],
  ['GradientDescent', { stepSize: perSystem(0.001), maxStep: perSystem(0.2) }],
  ['NoseHooverChain', { dt: perSystem(1), temperature: perSystem(300), tdamp: perSystem(100), chainLength: perSystem(3) }],
  ['Langevin', { dt: perSystem(1), temperature: perSystem(300), friction: perSystem(0.01), seed: perSystem(7) }],
];

describe.skipIf(skip)('checkpoints move between backends', () => {
  function stepperOn(backend: Backend, type: string, parameters: Record<string, Float64Array>, from?: NativeBatch): { batch: NativeBatch; stepper: NativeStepper } {
    const native = binding as NativeBinding;
    const batch = makeBatch(native, backend, randomBatchData(21, SIZES));
    if (from !== undefined) {
      batch.write('positions', from.hostView('positions', false).slice());
      batch.write('velocities', from.hostView('velocities', false).slice());
    }
    const Stepper = (native as unknown as { NativeStepper: StepperConstructor }).NativeStepper;
    return { batch, stepper: new Stepper(batch, null, type, parameters, 1) };
  }

  it.each(INTEGRATORS)('%s: a state() taken on one backend loads on the other and the runs go on alike', (type, parameters) => {
    (binding as NativeBinding).setErrorFactory((code, message) => Object.assign(new Error(message), { code }));
    for (const [first, second] of [['cuda', 'cpu'], ['cpu', 'cuda']] as const) {
      const a = stepperOn(first, type, parameters);
      a.stepper.advance(7, Infinity, false);
      const saved = a.stepper.state();
      const b = stepperOn(second, type, parameters, a.batch);
      b.stepper.stepCount = a.stepper.stepCount;
      b.stepper.loadState(saved);
      expect(Array.from(b.stepper.state())).toEqual(Array.from(saved));
      a.stepper.advance(5, Infinity, false);
      b.stepper.advance(5, Infinity, false);
      const scale = Math.max(1, ...Array.from(a.batch.hostView('positions', false), Math.abs));
      expect(maxDifference(b.batch.hostView('positions', false), a.batch.hostView('positions', false))).toBeLessThan(1e-10 * scale);
      expect(maxDifference(b.stepper.state(), a.stepper.state())).toBeLessThan(1e-10 * Math.max(1, ...Array.from(a.stepper.state(), Math.abs)));
      // A state of another width is refused by the same check on both backends.
      const wrong = Float64Array.from([SIZES.length, saved[1] + 1, ...new Array<number>(SIZES.length * (saved[1] + 1)).fill(0)]);
      expect(() => b.stepper.loadState(wrong)).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
    }
  });
});
