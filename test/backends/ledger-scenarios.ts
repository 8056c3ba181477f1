// The workloads whose device costs the ledger tests hold (docs/cuda.md, "The device ledger"): one body per
// workload, run on `mirror` everywhere and on `cuda` where a GPU is present. Each measures from a point
// after its start-up (the first upload of the batch and of the engine's tables) and returns what the ledger
// and the transfer counters saw, with the share of it that the JS hooks themselves caused.
import { icosahedron13 } from '../../lib/cli/argon.js';
import type { DeviceStats, TransferStats } from '../../lib/native/binding.js';
import type { Hookmd } from '../helpers/library.js';
import { randomSource } from './support.js';

export { libraryOn, type Hookmd } from '../helpers/library.js';

export interface ScenarioResult {
  /** Batch steps taken while measuring. */
  steps: number;
  /** Ledger and transfers over the measured steps. */
  device: DeviceStats;
  transfers: TransferStats;
  /** What the JS hooks' own reads charged (inside `device`). */
  hooks: DeviceStats;
  /** Chunks of steps between due JS hooks (JS hook calls + 1), or 1 without hooks. */
  chunks: number;
  atoms: number;
  systems: number;
}

/** Called at the start of the measured steps (the contract test also resets the real counters there). */
export type MeasureStart = () => void;

const ZERO: DeviceStats = {
  launches: 0, graphLaunches: 0, graphCaptures: 0, hostSyncs: 0, controlToHostBytes: 0, controlToDeviceBytes: 0, rebuildPasses: 0, systemsRebuilt: 0, rowRegrowths: 0, modeledDeviceBytes: 0,
};

function difference(after: DeviceStats, before: DeviceStats): DeviceStats {
  const out = { ...ZERO };
  for (const key of Object.keys(ZERO) as (keyof DeviceStats)[]) out[key] = after[key] - before[key];
  return out;
}

function add(total: DeviceStats, part: DeviceStats): void {
  for (const key of Object.keys(ZERO) as (keyof DeviceStats)[]) total[key] += part[key];
}

/** The MD engines the liquid workload runs: NVE, and the two thermostats at T 1.0. */
export type MdEngine = 'VelocityVerlet' | 'Langevin' | 'NoseHooverChain';

/**
 * MD of the in.lj liquid (fcc ρ 0.8442 σ⁻³, `cells`³ conventional cells, T 1.0, rc 2.5, skin 0.3, dt 0.005),
 * NVE unless `engine` says otherwise, for `steps` steps, with one JS hook every `every` steps that reads the
 * temperature.
 */
export async function nveWithHook(
  hookmd: Hookmd, start: MeasureStart,
  { cells = 10, steps = 1000, every = 100, engine = 'VelocityVerlet' }: { cells?: number; steps?: number; every?: number; engine?: MdEngine } = {},
): Promise<ScenarioResult> {
  const a = (4 / 0.8442) ** (1 / 3);
  const batch = hookmd.Batch.fromSystems([hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a, cubic: true }), [cells, cells, cells])], { units: 'lj' });
  hookmd.initializeVelocities(batch, { temperature: 1.0, seed: 3 });
  const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 });
  const md = engine === 'Langevin' ? new hookmd.Langevin({ model, dt: 0.005, temperature: 1.0, friction: 1, seed: 5 })
    : engine === 'NoseHooverChain' ? new hookmd.NoseHooverChain({ model, dt: 0.005, temperature: 1.0, tdamp: 0.5 })
      : new hookmd.VelocityVerlet({ model, dt: 0.005 });
  const hooks = { ...ZERO };
  let calls = 0;
  md.register({
    stage: hookmd.DynamicsStage.AFTER_STEP, frequency: every, name: 'temperature',
    call: (ctx) => {
      const before = batch.deviceStats();
      if (!(ctx.scalars.temperature[0] > 0)) throw new Error('no temperature');
      add(hooks, difference(batch.deviceStats(), before));
      calls++;
    },
  });
  await md.run(batch, { steps: 1 });
  Object.assign(hooks, ZERO);
  calls = 0;
  batch.resetDeviceStats();
  batch.resetTransferStats();
  start();
  const result = await md.run(batch, { steps });
  return { steps: result.steps, device: batch.deviceStats(), transfers: batch.transferStats(), hooks, chunks: calls + 1, atoms: batch.numAtoms, systems: 1 };
}

/** `count` LJ13 icosahedra (nearest neighbour 1.1σ), every coordinate displaced by a normal deviate of `stdev`. */
export function rattledLj13(count: number, stdev = 0.1, seed = 2026): Array<{ symbols: string[]; positions: number[][] }> {
  const uniform = randomSource(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  const base = icosahedron13(1.1);
  const symbols = Array<string>(13).fill('Ar');
  return Array.from({ length: count }, () => ({ symbols, positions: base.map((p) => p.map((x) => x + stdev * normal())) }));
}

/** The minimizers the cluster workload runs. */
export type Minimizer = 'FIRE' | 'FIRE2' | 'GradientDescent';

/**
 * Batched FIRE of `count` rattled LJ13 clusters (cutoff 10σ: every pair, fmax ≤ 1e-3) with no JS hook, to
 * convergence; measured after a first step has uploaded the batch, built its lists and started the engine.
 */
export async function fireClusters(hookmd: Hookmd, start: MeasureStart, { count = 4096, engine = 'FIRE' }: { count?: number; engine?: Minimizer } = {}): Promise<ScenarioResult> {
  const batch = hookmd.Batch.fromSystems(rattledLj13(count), { units: 'lj' });
  const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
  const convergence = hookmd.ConvergenceHook.fromFmax(1e-3);
  const optimizer = engine === 'FIRE' ? new hookmd.FIRE({ model, convergence })
    : engine === 'FIRE2' ? new hookmd.FIRE2({ model, convergence })
      : new hookmd.GradientDescent({ model, convergence, stepSize: 0.01 });
  await optimizer.run(batch, { steps: 1 });
  batch.resetDeviceStats();
  batch.resetTransferStats();
  start();
  const result = await optimizer.run(batch, { steps: 20_000, keepStatus: true });
  return { steps: result.steps, device: batch.deviceStats(), transfers: batch.transferStats(), hooks: { ...ZERO }, chunks: 1, atoms: batch.numAtoms, systems: count };
}

/**
 * The in.lj melt from the lattice (fcc ρ 0.8442 σ⁻³, `cells`³ conventional cells, T* 1.44, rc 2.5, skin 0.3,
 * dt 0.005), NVE with no JS hook, measured after a first step has built the lists: the rows the lattice sized
 * grow as it melts, so a resident chunk overflows them (docs/cuda.md, "Resident chunks"). Also returns the
 * final positions.
 */
export async function meltFromLattice(
  hookmd: Hookmd, start: MeasureStart, { cells = 20, steps = 768 }: { cells?: number; steps?: number } = {},
): Promise<ScenarioResult & { positions: Float64Array }> {
  const a = (4 / 0.8442) ** (1 / 3);
  const batch = hookmd.Batch.fromSystems([hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a, cubic: true }), [cells, cells, cells])], { units: 'lj' });
  hookmd.initializeVelocities(batch, { temperature: 1.44, seed: 87287, exact: true });
  const md = new hookmd.VelocityVerlet({ model: new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 }), dt: 0.005 });
  await md.run(batch, { steps: 1 });
  batch.resetDeviceStats();
  batch.resetTransferStats();
  start();
  const result = await md.run(batch, { steps });
  return {
    steps: result.steps, device: batch.deviceStats(), transfers: batch.transferStats(), hooks: { ...ZERO }, chunks: 1, atoms: batch.numAtoms, systems: 1,
    positions: batch.read('positions').slice(),
  };
}
