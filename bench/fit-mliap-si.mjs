#!/usr/bin/env node
// The full network fit of issue 43: a 2-layer tanh network (16, 16) on the shipped Si SNAP descriptors
// (Si_Zuo_JPCA2020.snapparam, 2J = 8, 55 components), trained with the Trainer (Adam, cosine schedule,
// mini-batches of 8 structures, energies and forces) on mlearn's Si/training.json, then evaluated on
// Si/test.json beside the shipped linear Si SNAP (Si_Zuo_JPCA2020.snap) evaluated by hookmd's SNAP: the
// network must reach the lower test force MAE, within 30 minutes on the project's 2-core machine.
//
// Usage: node bench/fit-mliap-si.mjs [--epochs 800] [--lr 0.005] [--batch 8] [--seed 1] [--minutes 28]
// Needs dist/ (npm run build), build/Release/hookmd.node and /usr/share/lammps/potentials.
import { machineLine, markdownTable, parseArgs, peakRssMiB } from './lib/harness.mjs';

const options = parseArgs({ epochs: 800, lr: 0.005, batch: 8, seed: 1, minutes: 28 });
const hookmd = await import('../dist/index.js');
const potentials = '/usr/share/lammps/potentials';
const data = (name) => hookmd.readMlearn(new URL(`../test/fixtures/mlearn/Si/${name}.json`, import.meta.url).pathname);
const train = data('training');
const test = data('test');

const started = performance.now();
const network = hookmd.MLIAP.network({
  descriptor: { file: `${potentials}/Si_Zuo_JPCA2020.snapparam`, elements: { Si: { radius: 0.5, weight: 1 } } },
  layers: [16, 16],
  activation: 'tanh',
  seed: options.seed,
});
const epochs = options.epochs;
const trainer = new hookmd.Trainer({
  model: network, train, epochs, batchSize: options.batch, seed: options.seed,
  optimizer: new hookmd.Adam({ lr: options.lr }), lrScheduler: new hookmd.CosineLR({ tMax: epochs }),
  lossWeights: { energy: 1, forces: 1 },
  hooks: [{ name: 'Progress', onEpochEnd: (ctx) => ctx.epoch % 25 === 0 && console.error(`epoch ${ctx.epoch}: train_loss ${ctx.metrics.train_loss.toExponential(3)} (${((performance.now() - started) / 1000).toFixed(0)} s)`) }],
});
const bound = (performance.now() - started) / 1000;
let stoppedBy = 'epochs';
try {
  await trainer.fit({ signal: AbortSignal.timeout(options.minutes * 60_000) });
} catch (error) {
  if (error?.code !== 'ABORTED') throw error;
  stoppedBy = `the ${options.minutes}-minute budget`;
}
const fitted = (performance.now() - started) / 1000;
const net = await hookmd.modelErrors(trainer.toModel(), test);
const snap = await hookmd.modelErrors(hookmd.SNAP.fromLammps(`${potentials}/Si_Zuo_JPCA2020.snap`), test);

console.log('## fit-mliap-si — a network on the Si SNAP descriptors against the shipped linear SNAP\n');
console.log(`${machineLine()}; ${hookmd.backendInfo().threads} threads; \`node bench/fit-mliap-si.mjs ${process.argv.slice(2).join(' ')}\`\n`);
console.log(`Training set ${train.length} structures (${train.reduce((n, s) => n + s.positions.length, 0)} atoms); ${trainer.epoch} epochs of ${epochs} (stopped by ${stoppedBy}); descriptors ${bound.toFixed(1)} s, total fit ${fitted.toFixed(1)} s; peak RSS ${peakRssMiB().toFixed(0)} MiB.\n`);
console.log(
  markdownTable(
    ['model (Si/test.json, 25 structures)', 'energy MAE (meV/atom)', 'force MAE (eV/Å)'],
    [
      ['network 55-16-16-1 tanh (hookmd Trainer)', (1000 * net.energyMae).toFixed(2), net.forcesMae.toFixed(4)],
      ['linear SNAP, Si_Zuo_JPCA2020.snap', (1000 * snap.energyMae).toFixed(2), snap.forcesMae.toFixed(4)],
    ],
    ['l', 'r', 'r'],
  ),
);
console.log(`\nforce MAE ratio network / SNAP: ${(net.forcesMae / snap.forcesMae).toFixed(3)}`);
