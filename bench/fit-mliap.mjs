#!/usr/bin/env node
// One epoch of the Si network of bench/fit-mliap-si.mjs (55-16-16-1 tanh on the shipped Si SNAP
// descriptors; mlearn Si/training.json, 214 structures; Adam lr 0.005, mini-batches of 8 in file order;
// energy and force loss): hookmd's Trainer against an eager PyTorch reference (bench/fit-mliap-torch.py) on
// the same precomputed descriptors and derivatives, dumped here from hookmd, with forces from autograd
// (F = −∂E/∂r through dB/dr, create_graph) and the weight gradient by double backprop. Both start from the
// same weights and take the same steps: the first epoch's mean loss must agree to 1e-6 (relative), and
// the time per epoch (best of `--epochs` epochs, after the descriptors) gives the ratio.
//
// Usage: node bench/fit-mliap.mjs [--epochs 3] [--python /path/to/python-with-torch]
// Needs dist/ (npm run build), build/Release/hookmd.node, /usr/share/lammps/potentials, and torch (pip install torch).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { machineLine, markdownTable, parseArgs, peakRssMiB, runExternal } from './lib/harness.mjs';

const options = parseArgs({ epochs: 3, python: 'python3', lr: 0.005, batch: 8 });
const hookmd = await import('../dist/index.js');
const { nativeBatchOf, Batch } = await import('../dist/data/index.js');
const { loadNetworkLoss } = await import('../dist/native/training-binding.js');
const train = hookmd.readMlearn(new URL('../test/fixtures/mlearn/Si/training.json', import.meta.url).pathname);
const network = hookmd.MLIAP.network({
  descriptor: { file: '/usr/share/lammps/potentials/Si_Zuo_JPCA2020.snapparam', elements: { Si: { radius: 0.5, weight: 1 } } },
  layers: [16, 16],
  seed: 1,
});

// hookmd: the Trainer, timing each epoch from BEFORE_EPOCH to AFTER_EPOCH.
const epochSeconds = [];
let epochStart = 0;
const trainer = new hookmd.Trainer({
  model: network, train, epochs: options.epochs, batchSize: options.batch, shuffle: false, seed: 1,
  optimizer: new hookmd.Adam({ lr: options.lr }), lossWeights: { energy: 1, forces: 1 },
  hooks: [{ name: 'EpochTimer', onEpochStart: () => { epochStart = performance.now(); }, onEpochEnd: () => { epochSeconds.push((performance.now() - epochStart) / 1000); } }],
});
const start = trainer.checkpoint();
const history = await trainer.fit();

// The same descriptors, derivatives, scales and starting weights, for the reference.
const folder = mkdtempSync(join(tmpdir(), 'hookmd-fit-mliap-'));
const batch = Batch.fromSystems(train);
const atoms = batch.numAtoms;
const present = new Uint8Array(3 * train.length).fill(1);
const native = new (loadNetworkLoss())(Float64Array.of(14), network.nativeSettings, Float64Array.of(0.5), Float64Array.of(1), network.nativeShape);
const refEnergy = Float64Array.from(train, (s) => s.energy);
const refForces = Float64Array.from(train.flatMap((s) => s.forces.flat()));
native.bind(nativeBatchOf(batch), refEnergy, refForces, new Float64Array(9 * train.length), present);
const { values: descriptors } = native.descriptors();
const { entryBegin, entryAtom, values: derivatives } = native.derivatives();
const write = (name, array) => writeFileSync(join(folder, name), new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
write('descriptors.f64', descriptors);
write('entry_begin.f64', entryBegin);
write('entry_atom.i32', entryAtom);
write('derivatives.f64', derivatives);
write('ref_energy.f64', refEnergy);
write('ref_forces.f64', refForces);
write('ptr.i32', batch.ptr);
write('weights.f64', Float64Array.from(start.variables));
write('scales.f64', Float64Array.from(start.model.scales));
writeFileSync(join(folder, 'meta.json'), JSON.stringify({
  atoms, systems: train.length, descriptors: native.numDescriptors, layers: network.layers.map((l) => l.nodes), lr: options.lr, batch: options.batch, epochs: options.epochs,
}));
const output = await runExternal(options.python, [new URL('./fit-mliap-torch.py', import.meta.url).pathname, folder]);
const torch = JSON.parse(output.stdout.trim().split('\n').at(-1));

const hookmdLoss = history.epochs[0].metrics.train_loss;
const best = Math.min(...epochSeconds);
const torchBest = Math.min(...torch.epochSeconds);
console.log('## fit-mliap — one epoch of the Si network: hookmd against eager PyTorch\n');
console.log(`${machineLine()}; ${hookmd.backendInfo().threads} threads (torch ${torch.version}, ${torch.threads} threads); \`node bench/fit-mliap.mjs ${process.argv.slice(2).join(' ')}\`\n`);
console.log(
  markdownTable(
    ['implementation', 'epoch 1 loss', 'best epoch (s) of ' + options.epochs, 'epochs (s)'],
    [
      ['hookmd Trainer (native loss, forward-over-reverse gradient)', hookmdLoss.toPrecision(12), best.toFixed(3), epochSeconds.map((s) => s.toFixed(3)).join(', ')],
      ['PyTorch eager, autograd forces, double backprop', torch.losses[0].toPrecision(12), torchBest.toFixed(3), torch.epochSeconds.map((s) => s.toFixed(3)).join(', ')],
    ],
    ['l', 'r', 'r', 'l'],
  ),
);
console.log(`\nPyTorch process peak RSS ${output.peakRssMiB.toFixed(0)} MiB.`);
console.log(`epoch-1 loss relative difference ${(Math.abs(hookmdLoss - torch.losses[0]) / Math.abs(torch.losses[0])).toExponential(2)}; speed-up (PyTorch / hookmd, best epochs) ${(torchBest / best).toFixed(2)}×; peak RSS (hookmd process) ${peakRssMiB().toFixed(0)} MiB`);
