// Issue 26, item 8: one model vocabulary. --model, --model-config, run configs and Trainer configs take the
// same model type names in any case (lj and LennardJones, eam and EAM), and the same optimizer names; what
// `hookmd fit --out` writes is a model file each of them takes; `fit --resume` of a finished run has
// nothing left to do and exits 0, continues when the epochs were raised, and loads a learning rate that a
// scheduler took to 0.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { parseModelFlag, resolveModelEntry } from '../../lib/cli/model.js';
import { LennardJones } from '../../lib/models/index.js';
import { Trainer } from '../../lib/training/index.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

let dir: string;
const reference = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });

/** Rattled argon crystals labelled with the reference model's energies and forces. */
function labelled(count: number): ReturnType<Batch['toSystems']> {
  const batch = Batch.fromSystems(Array.from({ length: count }, (_, k) => rattle(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), 0.1, k + 1)));
  reference.compute(batch);
  return batch.toSystems();
}

const fitConfig = (model: string, epochs: number, extra = ''): string => `model: ${model}
train: data.xyz
lossWeights: { energy: 1, forces: 1, stress: 0 }
optimizer: { type: adam, lr: 0.05 }
lrScheduler: { type: cosine, tMax: ${epochs} }
epochs: ${epochs}
batchSize: 3
seed: 1
${extra}`;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'data.xyz'), labelled(6));
  await writeExtxyz(join(dir, 'crystal.xyz'), [repeat(rattle(bulk('Ar', 'fcc', { a: 5.3, cubic: true }), 0.05, 9), [2, 1, 1])]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('model and optimizer names, any spelling (issue 26, item 8)', () => {
  it.each(['lj', 'LJ', 'LennardJones', 'lennard-jones'])('a Trainer config takes model type %s, and optimizer/scheduler names in any case', (type) => {
    const trainer = Trainer.fromConfig({
      model: { type, epsilon: 0.02, sigma: 3, cutoff: 8.5 }, train: labelled(2), epochs: 1,
      optimizer: { type: 'sgd', lr: 0.01 }, lrScheduler: { type: 'ReduceLROnPlateau' },
    });
    expect(trainer.config.model.type).toBe('LennardJones');
    expect(trainer.optimizer.type).toBe('SGD');
  });

  it('a Trainer config names the kinds it cannot fit, and the ones it can', () => {
    expect(() => Trainer.fromConfig({ model: { type: 'EAM', file: 'Cu.eam' }, train: labelled(1), epochs: 1 })).toThrow(/a Trainer fits lj \(LennardJones\)(, | and )morse \(Morse\).* models.*not eam/);
    expect(() => Trainer.fromConfig({ model: { type: 'bogus' }, train: labelled(1), epochs: 1 })).toThrow(/model\.type must be lj \(LennardJones\)(, | or )morse \(Morse\).*, got "bogus"/);
  });

  it('--model, --model-config, run configs and --optimizer take the class names too', async () => {
    writeFileSync(join(dir, 'model.yaml'), 'type: LennardJones\nepsilon: 0.0104\nsigma: 3.4\ncutoff: 8.5\n');
    writeFileSync(join(dir, 'run.yaml'), `model: { type: LENNARDJONES, epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }
input: crystal.xyz
stages:
  - { type: FIRE, fmax: 0.01, steps: 200 }
  - { type: VelocityVerlet, dt: 1, steps: 10 }
sinks: [{ path: run.xyz }]
`);
    for (const args of [
      ['relax', 'crystal.xyz', '--model', 'LennardJones:epsilon=0.0104,sigma=3.4,cutoff=8.5', '--optimizer', 'LBFGS', '--out', 'a.xyz'],
      ['relax', 'crystal.xyz', '--model-config', 'model.yaml', '--optimizer', 'GradientDescent', '--out', 'b.xyz'],
      ['md', 'crystal.xyz', '--model', 'Lj:epsilon=0.0104,sigma=3.4,cutoff=8.5', '--ensemble', 'NoseHooverChain', '--temperature', '10', '--steps', '5', '--out', 'c.xyz'],
      ['run', 'run.yaml'],
    ]) {
      const result = await runCli([...args, '--quiet'], { cwd: dir });
      expect(result.stderr, args.join(' ')).toBe('');
      expect(result.code).toBe(0);
    }
  });

  it('onnx and ipi models (issue 29) resolve through the same vocabulary, as --model and in a model file', () => {
    expect(parseModelFlag('OnnxModel:lj.onnx,cutoff=8.5')).toEqual({ type: 'onnx', file: 'lj.onnx', cutoff: 8.5 });
    expect(parseModelFlag('IPI:unix:hookmd,clients=2')).toEqual({ type: 'ipi', address: 'unix:hookmd', clients: 2 });
    writeFileSync(join(dir, 'onnx-model.yaml'), 'type: ONNX\nfile: lj.onnx\ncutoff: 8.5\n');
    // The model file's own file is relative to the model file, as an EAM table in it is.
    expect(resolveModelEntry('onnx-model.yaml', dir)).toEqual({ type: 'onnx', file: join(dir, 'lj.onnx'), cutoff: 8.5 });
  });

  it('--optimizer names the choices when it knows none of a name', async () => {
    const result = await runCli(['relax', 'crystal.xyz', '--model', 'lj:epsilon=1,sigma=3,cutoff=8', '--optimizer', 'bfgs'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("argument 'bfgs' is invalid. Allowed choices are fire (FIRE), fire2 (FIRE2), gd (GradientDescent), lbfgs (LBFGS), in any case.");
  });
});

describe('what fit --out writes, every model input takes (issue 26, item 8)', () => {
  it('--model FILE, --model-config FILE, a run config and a Trainer config all take fitted.json', async () => {
    writeFileSync(join(dir, 'fit.yaml'), fitConfig('{ type: LennardJones, epsilon: 0.02, sigma: 3.0, cutoff: 8.5 }', 3));
    expect((await runCli(['fit', 'fit.yaml', '--out', 'fitted.json', '--quiet'], { cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, 'refit.yaml'), fitConfig('fitted.json', 2));
    writeFileSync(join(dir, 'fitted-run.yaml'), 'model: fitted.json\ninput: crystal.xyz\nstages: [{ type: fire, fmax: 0.01 }]\nsinks: [{ path: fitted-run.xyz }]\n');
    for (const args of [
      ['relax', 'crystal.xyz', '--model', 'fitted.json', '--out', 'd.xyz'],
      ['relax', 'crystal.xyz', '--model-config', 'fitted.json', '--out', 'e.xyz'],
      ['run', 'fitted-run.yaml'],
      ['fit', 'refit.yaml'],
    ]) {
      const result = await runCli([...args, '--quiet'], { cwd: dir });
      expect(result.stderr, args.join(' ')).toBe('');
      expect(result.code).toBe(0);
    }
    expect(readFileSync(join(dir, 'd.xyz'), 'utf8')).toBe(readFileSync(join(dir, 'e.xyz'), 'utf8'));
  });
});

describe('fit --resume (issue 26, item 8)', () => {
  it('of a finished run says there is nothing left to do and exits 0; with more epochs it continues from lr 0', async () => {
    // CosineLR with tMax = epochs ends the run at lr = etaMin = 0, the learning rate the checkpoint holds.
    writeFileSync(join(dir, 'done.yaml'), fitConfig('{ type: lj, epsilon: 0.02, sigma: 3.0, cutoff: 8.5 }', 3, 'hooks:\n  - { type: CheckpointHook, dirpath: ckpt, saveLast: true }\n'));
    expect((await runCli(['fit', 'done.yaml', '--quiet'], { cwd: dir })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'ckpt', 'last.json'), 'utf8')).optimizer.state.lr).toBe(0);
    const again = await runCli(['fit', 'done.yaml', '--resume', 'ckpt/last.json'], { cwd: dir });
    expect(again.stderr).not.toContain('hookmd:');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('fit: nothing left to do: ckpt/last.json has completed 3 epochs and the config asks for 3; raise epochs in the config to train on');
    writeFileSync(join(dir, 'more.yaml'), fitConfig('{ type: lj, epsilon: 0.02, sigma: 3.0, cutoff: 8.5 }', 5).replace('tMax: 5', 'tMax: 3'));
    const more = await runCli(['fit', 'more.yaml', '--resume', 'ckpt/last.json', '--json', '--quiet'], { cwd: dir });
    expect(more.stderr).toBe('');
    expect(more.code).toBe(0);
    expect(JSON.parse(more.stdout)).toMatchObject({ epochs: 5, steps: 10, nothingToDo: false });
  });
});
