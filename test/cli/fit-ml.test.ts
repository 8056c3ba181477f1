// `hookmd fit` of ML potentials (issue 43 item 5): a SNAP by least squares and a network on SNAP descriptors,
// from mlearn JSON, each written as the LAMMPS files that SNAP.fromLammps / MLIAP.fromLammps (and LAMMPS) read.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { readMlearn } from '../../lib/io/index.js';
import { MLIAP, SNAP } from '../../lib/models/index.js';
import { fitSnap } from '../../lib/training/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { ensureBuilt, ROOT, runCli, workDir } from './run-cli.js';

const MO_PARAMETERS = join(LAMMPS_POTENTIALS, 'Mo_Zuo_JPCA2020.snapparam');
const SI_PARAMETERS = join(LAMMPS_POTENTIALS, 'Si_Zuo_JPCA2020.snapparam');
const MO_SUBSET = join(ROOT, 'docs', 'examples', 'Mo-mlearn-subset.json');

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = workDir();
  // Four Si structures of the mlearn training set: enough for two epochs of a tiny network.
  const si = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'mlearn', 'Si', 'training.json'), 'utf8')) as unknown[];
  writeFileSync(join(dir, 'si.json'), JSON.stringify(si.slice(0, 4)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!existsSync(MO_PARAMETERS))('hookmd fit of ML potentials', () => {
  it('model type snap: least squares, the errors, and --out as the LAMMPS files of the same SNAP fitSnap returns', async () => {
    writeFileSync(
      join(dir, 'snap.yaml'),
      `model: { type: snap, parameters: ${MO_PARAMETERS}, elements: { Mo: { radius: 0.5, weight: 1 } } }\ntrain: ${MO_SUBSET}\nvalidation: ${MO_SUBSET}\nlossWeights: { energy: 300, forces: 1 }\n`,
    );
    const result = await runCli(['fit', 'snap.yaml', '--out', 'Mo-fit', '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as { model: string; structures: number; coefficients: number; train: { forcesMae: number }; validation: { forcesMae: number }; outputs: string[] };
    expect(summary).toMatchObject({ model: 'snap', structures: 13, coefficients: 31 });
    expect(summary.outputs).toEqual(['Mo-fit.snap', 'Mo-fit.snapcoeff', 'Mo-fit.snapparam']);
    expect(summary.validation.forcesMae).toBe(summary.train.forcesMae);
    const train = readMlearn(MO_SUBSET);
    const inProcess = fitSnap({ train, parameters: MO_PARAMETERS, elements: { Mo: { radius: 0.5, weight: 1 } }, weights: { energy: 300, forces: 1 } });
    const saved = SNAP.fromLammps(join(dir, 'Mo-fit.snap'));
    const structures = train.map(({ energy: _e, forces: _f, stress: _s, ...rest }) => rest);
    const [a, b] = [Batch.fromSystems(structures), Batch.fromSystems(structures)];
    inProcess.compute(a);
    saved.compute(b);
    expect(Array.from(b.energy)).toEqual(Array.from(a.energy));
  });

  it('a SNAP config with epochs is refused by name before any work', async () => {
    writeFileSync(join(dir, 'bad.yaml'), `model: { type: snap, parameters: ${MO_PARAMETERS}, elements: { Mo: { radius: 0.5, weight: 1 } } }\ntrain: ${MO_SUBSET}\nepochs: 10\n`);
    const result = await runCli(['fit', 'bad.yaml'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option epochs/);
  });

  it('model type mliap: a network trained with progress per epoch, --out as the ML-IAP files MLIAP.fromLammps runs', async () => {
    writeFileSync(
      join(dir, 'net.yaml'),
      `model: { type: mliap, descriptor: { file: ${SI_PARAMETERS}, elements: { Si: { radius: 0.5 } } }, layers: [4], seed: 1 }
train: si.json
lossWeights: { energy: 1, forces: 1, stress: 0 }
optimizer: { type: Adam, lr: 0.01 }
epochs: 2
batchSize: 2
seed: 1
`,
    );
    const result = await runCli(['fit', 'net.yaml', '--out', 'si-net.mliap'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/fit: 2 epochs, 4 steps/);
    expect(result.stdout).toMatch(/si-net\.mliap, si-net\.mliap\.model, si-net\.mliap\.descriptor/);
    const network = MLIAP.fromLammps(join(dir, 'si-net.mliap'));
    expect(network.kind).toBe('nn');
    const batch = Batch.fromSystems(readMlearn(join(dir, 'si.json')).map(({ energy: _e, forces: _f, stress: _s, ...rest }) => rest));
    network.compute(batch);
    expect(Array.from(batch.energy).every(Number.isFinite)).toBe(true);
  });
});
