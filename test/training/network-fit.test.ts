// A network on SNAP descriptors as a Trainer model (MLIAP.network): its exact weight gradient against central
// differences of the loss, its energies, forces and stresses against the MLIAP evaluator of the same
// weights, the descriptor derivatives against finite differences, a small fit on mlearn's Si data, and the
// hooks of the training stages on it (docs/training.md, "Neural networks on descriptors").
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { Batch, nativeBatchOf } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { readMlearn } from '../../lib/io/mlearn.js';
import { MLIAP } from '../../lib/models/index.js';
import type { MLIAPNetworkOptions } from '../../lib/models/index.js';
import { loadBinding, type NativeNetworkLoss } from '../../lib/native/index.js';
import {
  Adam, CheckpointHook, EarlyStoppingHook, ForwardObserverHook, GradientMonitorHook, LearningRateMonitorHook, modelErrors, SGD, StepLR, Trainer, TrainingStage,
} from '../../lib/training/index.js';
import type { GradientStats, TrainingHookContext } from '../../lib/training/index.js';
import { TrainingSet } from '../../lib/training/dataset.js';
import { resolveLossWeights } from '../../lib/training/loss-weights.js';
import { NetworkSpace } from '../../lib/training/network-space.js';

const SI_PARAM = '/usr/share/lammps/potentials/Si_Zuo_JPCA2020.snapparam';
const folder = mkdtempSync(join(tmpdir(), 'hookmd-network-test-'));
// A small descriptor (2J = 4, 14 components) keeps the hook tests quick; the fit uses the shipped Si one.
const SMALL_PARAM = join(folder, 'small.snapparam');
writeFileSync(SMALL_PARAM, 'rcutfac 4.2\ntwojmax 4\nrfac0 0.99363\nrmin0 0\nbzeroflag 0\nquadraticflag 0\n');

const training = readMlearn('test/fixtures/mlearn/Si/training.json');
// The eight structures of ≤ 24 atoms (near equilibrium: small forces) for the hook tests; the fit adds four
// 64-atom AIMD snapshots and holds out two others, whose forces are large.
const train = training.filter((s) => s.positions.length <= 24);
const aimd = training.filter((s) => (s.info as { group?: string } | undefined)?.group === 'AIMD-NVT');
const held = aimd.slice(40, 42);

function network(options: Partial<MLIAPNetworkOptions> = {}): ReturnType<typeof MLIAP.network> {
  return MLIAP.network({ descriptor: { file: SMALL_PARAM, elements: { Si: { radius: 0.5, weight: 1 } } }, layers: [6, 5], seed: 3, ...options });
}

function trainer(extra: Partial<ConstructorParameters<typeof Trainer>[0]> = {}): Trainer {
  return new Trainer({ model: network(), train: train.slice(0, 3), epochs: 2, batchSize: 2, optimizer: new Adam({ lr: 0.01 }), seed: 5, ...extra });
}

const bits = (values: ArrayLike<number>): string => Buffer.from(Float64Array.from(values).buffer).toString('hex');
const allBits = (record: Readonly<Record<string, number | Float64Array>>): string => Object.values(record).map((v) => bits(typeof v === 'number' ? [v] : v)).join();

describe('the network loss and its gradient', () => {
  const space = new NetworkSpace(network({ activation: 'tanh' }), 'test');
  const weights = resolveLossWeights({ energy: 1, forces: 1, stress: 1 }, 'test');
  const set = new TrainingSet(train.slice(0, 4), space, weights, 'metal', 'train', true);
  const all = Int32Array.from({ length: set.size }, (_, k) => k);
  const theta = space.initial.map((v, p) => v + 0.3 * Math.sin(1.3 * p));

  it('∂L/∂θ equals central differences of the loss (energy, forces and stress terms)', () => {
    set.forward(theta, all);
    const gradient = new Float64Array(space.size);
    set.loss(gradient);
    const at = (t: Float64Array): number => {
      set.forward(t, all);
      return set.loss(null).total;
    };
    // Every layer's weights and biases, the output layer included.
    for (const p of [0, 1, 7, 40, 85, 90, space.size - 7, space.size - 2, space.size - 1]) {
      const h = 1e-5;
      const plus = theta.slice();
      plus[p] += h;
      const minus = theta.slice();
      minus[p] -= h;
      const difference = (at(plus) - at(minus)) / (2 * h);
      expect(Math.abs(gradient[p] - difference)).toBeLessThan(1e-7 * Math.max(1, Math.abs(difference)));
    }
  });

  it('predicts the energies, forces and stresses of the MLIAP evaluator with the same weights', async () => {
    set.forward(theta, all);
    const predicted = set.predictions(set.forwardCount);
    const batch = Batch.fromSystems(train.slice(0, 4).map(({ energy: _e, forces: _f, stress: _s, ...rest }) => rest));
    await space.toModel(theta).compute(batch, { stress: true });
    const close = (a: ArrayLike<number>, b: ArrayLike<number>, scale: number): void => {
      for (let k = 0; k < a.length; k++) expect(Math.abs(a[k] - b[k])).toBeLessThan(1e-10 * scale);
    };
    close(predicted.energy, batch.energy, 100);
    close(predicted.forces, batch.forces, 10);
    close(predicted.stress, batch.stress, 1);
  });

  it('descriptor derivatives equal central differences of the descriptors', () => {
    const system = train[0] as System;
    const net = network();
    const descriptorsAt = (positions: number[][]): { values: Float64Array; native: ReturnType<typeof bind> } => {
      const native = bind({ ...system, positions });
      return { values: native.descriptors().values, native };
    };
    const bind = (s: System): NativeNetworkLoss => {
      const batch = Batch.fromSystems([s]);
      const n = batch.numAtoms;
      const native = new (loadBinding().NetworkLoss)(Float64Array.of(14), net.nativeSettings, Float64Array.of(0.5), Float64Array.of(1), net.nativeShape);
      native.bind(nativeBatchOf(batch), new Float64Array(1), new Float64Array(3 * n), new Float64Array(9), new Uint8Array(3));
      return native;
    };
    const base = descriptorsAt(system.positions as number[][]);
    const n = base.native.numDescriptors;
    const { entryBegin, entryAtom, values } = base.native.derivatives();
    const h = 1e-5;
    for (const [atom, axis] of [[0, 0], [3, 1], [5, 2]] as const) {
      const moved = (sign: number): Float64Array => descriptorsAt((system.positions as number[][]).map((r, i) => (i === atom ? r.map((x, c) => (c === axis ? x + sign * h : x)) : r))).values;
      const plus = moved(1);
      const minus = moved(-1);
      for (let j = 0; j < system.positions.length; j++) {
        let entry = -1;
        for (let e = entryBegin[j]; e < entryBegin[j + 1]; e++) if (entryAtom[e] === atom) entry = e;
        for (let c = 0; c < n; c++) {
          const difference = (plus[j * n + c] - minus[j * n + c]) / (2 * h);
          const analytic = entry < 0 ? 0 : values[(entry * n + c) * 3 + axis];
          expect(Math.abs(analytic - difference)).toBeLessThan(1e-6 * Math.max(1, Math.abs(difference)));
        }
      }
    }
  });
});

describe('a CI-sized fit on mlearn Si', () => {
  it('lowers the loss and beats the zero-force baseline on held-out structures', async () => {
    const model = MLIAP.network({ descriptor: { file: SI_PARAM, elements: { Si: { radius: 0.5 } } }, layers: [16, 16], seed: 1 });
    const fit = new Trainer({ model, train: [...train, ...aimd.slice(0, 4)], epochs: 60, batchSize: 4, optimizer: new Adam({ lr: 0.01 }), lossWeights: { energy: 1, forces: 1 }, seed: 1 });
    const history = await fit.fit();
    const losses = history.epochs.map((e) => e.metrics.train_loss);
    expect(losses.at(-1)).toBeLessThan(0.05 * (losses[0] as number));
    // Forces average to zero, so predicting none has the MAE of the labels: what a useful model must beat.
    const labels = held.flatMap((s) => (s.forces as number[][]).flat());
    const zeroForceMae = labels.reduce((sum, f) => sum + Math.abs(f), 0) / labels.length;
    const errors = await modelErrors(fit.toModel(), held);
    expect(errors.forcesMae).toBeLessThan(0.4 * zeroForceMae);
  });
});

describe('training hooks on a network', () => {
  it('forward hooks see each layer’s activations, read-only, and cannot change the fit', async () => {
    const seen: Record<string, number>[] = [];
    const observer = {
      name: 'Activations', stage: TrainingStage.AFTER_FORWARD, frequency: 1,
      call: (ctx: TrainingHookContext): void => {
        const activations = ctx.activations as Readonly<Record<string, Float64Array>>;
        const atoms = Array.from(ctx.systems as Int32Array, (k) => (train[k] as System).positions.length).reduce((a, b) => a + b, 0);
        seen.push(Object.fromEntries(Object.entries(activations).map(([k, v]) => [k, v.length / atoms])));
        expect(Object.isFrozen(activations)).toBe(true);
        for (const values of Object.values(activations)) values.fill(Number.NaN);
      },
    };
    const plain = await trainer().fit();
    const watched = await trainer({ hooks: [observer, new ForwardObserverHook({ observe: (p) => p.forces.fill(0) })] }).fit();
    expect(allBits(watched.parameters)).toBe(allBits(plain.parameters));
    // Per atom of the step's systems: layers.0 has 6 nodes, layers.1 five, layers.2 (the output) one.
    expect(seen).toHaveLength(4);
    for (const counts of seen) expect(counts).toEqual({ 'layers.0': 6, 'layers.1': 5, 'layers.2': 1 });
  });

  it('update hooks: an identity hook gives the same bits as none, zeroed gradients leave the weights as they were', async () => {
    const plain = await trainer().fit();
    const identity = { name: 'Identity', stage: TrainingStage.BEFORE_OPTIMIZER_STEP, frequency: 1, call: (ctx: TrainingHookContext): void => {
      for (const [name, g] of Object.entries(ctx.gradients)) (ctx.gradients as Record<string, Float64Array>)[name] = (g as Float64Array).slice();
    } };
    expect(allBits((await trainer({ hooks: [identity] }).fit()).parameters)).toBe(allBits(plain.parameters));
    const zero = { name: 'Zero', stage: TrainingStage.BEFORE_OPTIMIZER_STEP, frequency: 1, call: (ctx: TrainingHookContext): void => {
      for (const g of Object.values(ctx.gradients)) (g as Float64Array).fill(0);
    } };
    const frozen = trainer({ hooks: [zero], optimizer: new SGD({ lr: 0.1, momentum: 0.9 }) });
    const before = allBits(frozen.parameters);
    await frozen.fit();
    expect(allBits(frozen.parameters)).toBe(before);
  });

  it('GradientMonitorHook selects by layer and parameter name, with per-parameter norms and histograms', async () => {
    const records: GradientStats[] = [];
    const byName = new GradientMonitorHook({ name: 'ByName', filter: ['layers.0.weight'], histogram: { bins: 4 }, writer: (s) => records.push(s) });
    const byLayer = new GradientMonitorHook({ name: 'ByLayer', filter: ['layers.1'] });
    const byPattern = new GradientMonitorHook({ name: 'ByPattern', filter: /\.bias$/, histogram: { edges: [-1, 0, 1] } });
    const fitted = trainer({ hooks: [byName, byLayer, byPattern] });
    await fitted.fit();
    const last = records.at(-1) as GradientStats;
    expect(Object.keys(last.values)).toEqual(['layers.0.weight']);
    const weight = last.values['layers.0.weight'] as Float64Array;
    expect(weight.length).toBe(6 * 14);
    expect(last.parameters['layers.0.weight'].norm).toBeCloseTo(Math.hypot(...weight), 12);
    const counted = last.histograms?.['layers.0.weight'];
    expect(counted?.edges.length).toBe(5);
    expect(counted?.counts.reduce((a, b) => a + b, 0)).toBe(weight.length);
    expect(Object.keys(byLayer.last?.values ?? {})).toEqual(['layers.1.weight', 'layers.1.bias']);
    expect(Object.keys(byPattern.last?.values ?? {})).toEqual(['layers.0.bias', 'layers.1.bias', 'layers.2.bias']);
    expect(byPattern.last?.histograms?.['layers.2.bias']?.edges).toEqual([-1, 0, 1]);
    await expect(trainer({ hooks: [new GradientMonitorHook({ filter: ['layers.9.weight'] })] }).trainingStep([0])).rejects.toThrow(/names no parameter/);
  });

  it('checkpoint top-k by val/loss, early stopping, the LR monitor, run metadata and resume work unchanged', async () => {
    const dir = mkdtempSync(join(folder, 'ckpt-'));
    const lrs: number[] = [];
    const options = {
      validation: train.slice(6), epochs: 6, lrScheduler: new StepLR({ stepSize: 2, gamma: 0.5 }),
      hooks: [
        new CheckpointHook({ dirpath: dir, monitor: 'val/loss', saveTopK: 2, saveLast: true }),
        new EarlyStoppingHook({ monitor: 'val/loss', patience: 50 }),
        new LearningRateMonitorHook({ writer: (entry: { lr: number }) => lrs.push(entry.lr) }),
      ],
    };
    const first = trainer(options);
    const history = await first.fit();
    expect(history.epochs).toHaveLength(6);
    expect(readdirSync(dir).filter((f) => f.startsWith('epoch')).length).toBe(2);
    expect(lrs.slice(0, 3)).toEqual([0.01, 0.01, 0.005]);
    const metadata = history.metadata;
    expect(metadata.configHash).toBe(first.configHash);
    expect(metadata.hooks.map((h) => [h.name, h.enabled])).toEqual([['CheckpointHook', true], ['EarlyStoppingHook', true], ['LearningRateMonitorHook', true]]);
    // Resume from the third epoch's state: the same weights, bit for bit, as the uninterrupted run.
    const partial = trainer({ ...options, epochs: 3, hooks: [] });
    await partial.fit();
    const resumed = trainer({ ...options, hooks: [] });
    await resumed.fit({ resumeFrom: partial.checkpoint() });
    expect(allBits(resumed.parameters)).toBe(allBits(history.parameters));
  });

  it('a non-finite update stops the fit with the last finite weights and the last good checkpoint kept', async () => {
    const dir = mkdtempSync(join(folder, 'nan-'));
    const poison = { name: 'Poison', stage: TrainingStage.BEFORE_OPTIMIZER_STEP, frequency: 1, call: (ctx: TrainingHookContext): void => {
      if (ctx.stepCount === 3) (ctx.gradients['layers.0.weight'] as Float64Array)[0] = Number.NaN;
    } };
    let kept = '';
    const track = { name: 'Track', stage: TrainingStage.AFTER_STEP, frequency: 1, call: (ctx: TrainingHookContext): void => {
      kept = allBits(ctx.parameters);
    } };
    const run = trainer({ epochs: 4, hooks: [poison, track, new CheckpointHook({ dirpath: dir, saveLast: true, everyNSteps: 1 })] });
    await expect(run.fit()).rejects.toMatchObject({ code: 'TRAINING_DIVERGED' });
    expect(allBits(run.parameters)).toBe(kept);
    expect(readdirSync(dir)).toContain('last.json');
  });
});

describe('bad input', () => {
  const bad = (options: Partial<MLIAPNetworkOptions>): (() => unknown) => () => network(options);
  it('names the problem before any work', () => {
    expect(bad({ layers: [16, 0] })).toThrow(/layers\[1\] must be a whole number of nodes/);
    expect(bad({ activation: 'swish' as never })).toThrow(/activation must be one of/);
    expect(bad({ descriptor: { file: SMALL_PARAM, elements: { Si: { radius: -1 } } } })).toThrow(/radius must be a finite number > 0/);
    expect(() => trainer({ optimizer: new Adam({ lr: 0 }) })).toThrow(/lr/);
    const germanium = { ...(train[0] as System), symbols: (train[0].symbols as string[]).map(() => 'Ge') };
    expect(() => trainer({ train: [germanium] })).toThrow(expect.objectContaining({ code: 'MISSING_SPECIES' }));
    const { forces: _f, ...unforced } = train[0] as System;
    expect(() => trainer({ train: [unforced] })).toThrow(/no reference forces/);
    expect(() => trainer({ train: [{ ...(train[0] as System), energy: Number.NaN }] })).toThrow(expect.objectContaining({ code: 'INVALID_ENERGY' }));
  });
});
