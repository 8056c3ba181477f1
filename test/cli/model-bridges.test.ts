// The CLI's bridges to outside potentials: `--model onnx:FILE,cutoff=R` and `--model ipi:unix:NAME,clients=K`,
// the same in run configs, and how `--model` reads them.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseModelFlag } from '../../lib/cli/model.js';
import { bulk, rattle, repeat } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { LJ13_MINIMUM } from '../dynamics/lj-systems.js';
import { asePython, aseSkipReason } from '../helpers/ase.js';
import { makeOnnxModel, onnxSkipReason } from '../helpers/onnx.js';
import { writeClusters } from './fixtures.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

let dir: string;
let clusters: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  clusters = await writeClusters(dir, 4);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--model for outside potentials', () => {
  it('reads onnx:FILE,… and ipi:ADDRESS,… with the file or address first', () => {
    expect(parseModelFlag('onnx:models/lj.onnx,cutoff=2.5,dtype=float32')).toEqual({ type: 'onnx', file: 'models/lj.onnx', cutoff: 2.5, dtype: 'float32' });
    expect(parseModelFlag('ipi:unix:hookmd,clients=4')).toEqual({ type: 'ipi', address: 'unix:hookmd', clients: 4 });
    expect(parseModelFlag('ipi:localhost:31415,timeout=30')).toEqual({ type: 'ipi', address: 'localhost:31415', timeout: 30 });
    expect(parseModelFlag('ipi:31415')).toEqual({ type: 'ipi', address: '31415' });
    expect(() => parseModelFlag('onnx:lj.onnx')).toThrow(/cutoff/);
    expect(() => parseModelFlag('ipi:unix:x,clients=0')).toThrow(/clients/);
  });
});

// The LJ13 minimum with every pair energy shifted to 0 at 2.5σ (all 78 pairs lie within it).
const LJ13_SHIFTED_MINIMUM = LJ13_MINIMUM - 78 * 4 * (2.5 ** -12 - 2.5 ** -6);

describe.skipIf(onnxSkipReason !== '')(`hookmd with an ONNX model ${onnxSkipReason}`, () => {
  let model: string;
  beforeAll(() => {
    model = makeOnnxModel('cli-lj.onnx', 'lj', ['--shift']);
  });

  it('relax --model onnx:FILE,cutoff=R relaxes to the minimum', async () => {
    const result = await runCli(['relax', clusters, '--units', 'lj', '--model', `onnx:${model},cutoff=2.5,skin=0.3`, '--fmax', '1e-4', '--out', 'onnx-relaxed.xyz'], { cwd: dir, timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    for (const system of readExtxyz(join(dir, 'onnx-relaxed.xyz'), { units: 'lj' })) expect(system.energy).toBeCloseTo(LJ13_SHIFTED_MINIMUM, 4);
  }, 150_000);

  it('a run config names it as { type: onnx, file, cutoff }, the file relative to the config', async () => {
    writeFileSync(join(dir, 'onnx.yaml'), `input: clusters.xyz\nunits: lj\nmodel: { type: onnx, file: ${model}, cutoff: 2.5 }\nstages:\n  - { type: fire, fmax: 1.0e-3 }\nsinks:\n  - { path: onnx-run.xyz }\n`);
    const result = await runCli(['run', 'onnx.yaml', '--quiet'], { cwd: dir, timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(readExtxyz(join(dir, 'onnx-run.xyz'), { units: 'lj' })).toHaveLength(4);
  }, 150_000);

  it('a model file that does not load is a usage error naming the field', async () => {
    const result = await runCli(['relax', clusters, '--units', 'lj', '--model', 'onnx:missing.onnx,cutoff=2.5'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--model: file: .*could not load/);
  });

  it('a model that fails while running exits 1 with one typed line naming the model and the call, no stack trace (issue 39, item 21)', async () => {
    const broken = makeOnnxModel('cli-broken.onnx', 'broken');
    const result = await runCli(['relax', clusters, '--units', 'lj', '--model', `onnx:${broken},cutoff=2.5`, '--out', 'broken.xyz', '--quiet'], { cwd: dir, timeoutMs: 120_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hookmd: cli-broken\.onnx\.compute: onnxruntime failed while running .*cli-broken\.onnx \(compute call 1, \d+ systems, \d+ atoms\): /m);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  }, 150_000);
});

const EMT_CLIENT = `
import sys
from ase.build import bulk
from ase.calculators.emt import EMT
from ase.calculators.socketio import SocketClient
atoms = bulk('Cu', 'fcc', a=3.61, cubic=True).repeat((2, 2, 2))
atoms.calc = EMT()
SocketClient(unixsocket=sys.argv[1]).run(atoms, use_stress=True)
`;

/** Starts an ASE EMT client once the socket exists (the server comes up with the command). */
function emtClientWhenListening(name: string): ChildProcess {
  const script = `import os, time\nwhile not os.path.exists('/tmp/ipi_${name}'): time.sleep(0.05)\n${EMT_CLIENT}`;
  return spawn(asePython as string, ['-c', script, name], { stdio: 'ignore' });
}

describe.skipIf(aseSkipReason !== '')(`hookmd with i-PI clients ${aseSkipReason}`, () => {
  it('relax --model ipi:unix:NAME,clients=2 relaxes through two ASE EMT clients and sends them EXIT at the end', async () => {
    const cells = [1, 2, 3].map((seed) => rattle(repeat(bulk('Cu', 'fcc', { a: 3.61, cubic: true }), [2, 2, 2]), 0.05, seed));
    await writeExtxyz(join(dir, 'copper.xyz'), cells);
    const name = `hookmd-cli-${process.pid}`;
    const clients = [emtClientWhenListening(name), emtClientWhenListening(name)];
    const exits = clients.map((child) => new Promise<number | null>((resolve) => child.once('exit', resolve)));
    const result = await runCli(['relax', 'copper.xyz', '--model', `ipi:unix:${name},clients=2,timeout=60`, '--fmax', '0.05', '--out', 'copper-relaxed.xyz'], { cwd: dir, timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    const relaxed = readExtxyz(join(dir, 'copper-relaxed.xyz'));
    expect(relaxed.map((s) => s.info?.converged)).toEqual([true, true, true]);
    expect(await Promise.all(exits)).toEqual([0, 0]);
  }, 150_000);
});
