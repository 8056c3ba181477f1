// Exit codes as spawned processes: bad flags and bad configs exit 2 with a message that names the problem
// (and, for configs, points into the file); failures while running exit 1.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MODEL_KINDS } from '../../lib/models/index.js';
import { LJ_MODEL, writeClusters } from './fixtures.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeClusters(dir, 2);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const relax = (...extra: string[]): string[] => ['relax', 'clusters.xyz', '--units', 'lj', '--quiet', ...extra];

// Each case is its own process and its own files, so they run side by side.
describe.concurrent('usage errors exit 2 and name the problem', () => {
  it.each([
    [['bogus'], "unknown command 'bogus'"],
    [['relax'], "missing required argument 'input'"],
    [relax('--model', LJ_MODEL, '--fmax', '-1'), "option '--fmax <f>' argument '-1' is invalid. must be a number > 0."],
    [relax('--model', LJ_MODEL, '--max-steps', '2.5'), "option '--max-steps <n>' argument '2.5' is invalid. must be an integer ≥ 1."],
    [relax('--model', LJ_MODEL, '--optimizer', 'bfgs'), "argument 'bfgs' is invalid. Allowed choices are fire (FIRE), fire2 (FIRE2), gd (GradientDescent), lbfgs (LBFGS), in any case."],
    [relax(), 'hookmd: give a force field with exactly one of --model or --model-config'],
    [relax('--model', 'lj:epsilon=1,sigma=1'), 'hookmd: --model: cutoff: is required'],
    [relax('--model', 'lj:epsilon=1,sigma=-2,cutoff=2.5'), 'hookmd: --model: sigma: must be a number > 0, got -2'],
    [relax('--model', 'bogus:A=1'), `hookmd: --model: type: must be one of ${MODEL_KINDS.names.map((kind) => `'${kind}'`).join(', ')}, got 'bogus'`],
    [relax('--model', 'lj:epsilon=1,sigma=1,cutoff=2.5,switchOn=3'), 'hookmd: --model: switchOn: LennardJones: switchOn must be smaller than every cutoff (2.5), got 3'],
    [relax('--model', LJ_MODEL, '--out', 'no/such/dir/out.xyz'), 'hookmd: --out: cannot write no/such/dir/out.xyz: directory no/such/dir does not exist'],
    [relax('--model', LJ_MODEL, '--step-size', '0.1'), 'hookmd: --step-size: only with --optimizer gd'],
    [['relax', 'missing.xyz', '--model', LJ_MODEL], 'hookmd: relax: <input>: missing.xyz does not exist'],
    [['md', 'clusters.xyz', '--model', LJ_MODEL, '--ensemble', 'langevin'], 'hookmd: --temperature: required with --ensemble langevin'],
    [['md', 'clusters.xyz', '--model', LJ_MODEL, '--friction', '1'], 'hookmd: --friction: only with --ensemble langevin'],
    [['run', 'missing.yaml'], 'hookmd: missing.yaml: cannot read it'],
    [['md', 'clusters.xyz', '--units', 'lj', '--model', LJ_MODEL, '--quiet'], 'hookmd: md: nothing would be written: give --out (final frames), --traj (trajectory) or --log (thermo log)'],
  ])('%j', async (args, message) => {
    const result = await runCli(args, { cwd: dir });
    expect(result.stderr).toContain(message);
    expect(result.code).toBe(2);
  });

  it('rejects a malformed input file, naming its line', async () => {
    writeFileSync(join(dir, 'broken.xyz'), '2\nProperties=species:S:1:pos:R:3\nAr 0 0 0\nAr 1.1 zero 0\n');
    const result = await runCli(['relax', 'broken.xyz', '--units', 'lj', '--model', LJ_MODEL, '--out', 'b.xyz'], { cwd: dir });
    expect(result.stderr).toMatch(/^hookmd: streamExtxyz: broken\.xyz:4: /m);
    expect(result.code).toBe(2);
  });

  it('refuses to write a Zarr store over a directory that holds files', async () => {
    mkdirSync(join(dir, 'full.zarr'), { recursive: true });
    writeFileSync(join(dir, 'full.zarr', 'keep'), 'x');
    const result = await runCli(relax('--model', LJ_MODEL, '--zarr', 'full.zarr'), { cwd: dir });
    expect(result.stderr).toContain('hookmd: --zarr: ZarrSink: full.zarr already exists and is not an empty directory');
    expect(result.code).toBe(2);
  });
});

describe.concurrent('bad configs exit 2 with messages that point into the file', () => {
  const config = (body: string): string => `units: lj
model: { type: lj, epsilon: 1, sigma: 1, cutoff: 2.5 }
input: clusters.xyz
${body}`;

  it.each([
    ['a hook frequency', config(`stages:
  - { type: fire, fmax: 0.01 }
hooks:
  - { type: NaNDetectorHook }
  - { type: WrapPeriodicHook, frequency: 2 }
  - { type: LoggingHook, path: log.csv, frequency: 0 }
`), ['bad.yaml:9: hooks[2].frequency: must be an integer ≥ 1, got 0']],
    ['typos, missing and wrong values, all at once', config(`stages:
  - { type: fire, fmax: 0.01, stepz: 10 }
  - { type: langevin, dt: -1 }
sinks:
  - { path: out.xyz, capacity: many }
`), [
      "bad.yaml:5: stages[0].stepz: is not a known key (did you mean steps?); expected one of type, steps, fmax, dt, dtMax, dtMin, maxStep, nMin, fInc, fDec, alphaStart, fAlpha",
      'bad.yaml:6: stages[1].temperature: is required',
      'bad.yaml:6: stages[1].dt: must be a number > 0, got -1',
      "bad.yaml:8: sinks[0].capacity: must be an integer ≥ 1, got 'many'",
    ]],
    ['an unknown stage type', config('stages:\n  - { type: bfgs }\nsinks: [{ path: o.xyz }]\n'), ["bad.yaml:5: stages[0].type: must be one of 'fire', 'fire2', 'gd', 'lbfgs', 'nve', 'langevin', 'nhc', 'npt', 'npt-langevin', got 'bfgs'"]],
    ['a missing section', 'units: lj\ninput: clusters.xyz\n', ['bad.yaml:1: model: is required', 'bad.yaml:1: stages: is required', 'bad.yaml:1: sinks: is required']],
    ['a run with no sinks, which would write nothing', config('stages:\n  - { type: fire, fmax: 0.01 }\nsinks: []\n'), ['bad.yaml:6: sinks: must have at least 1 entry']],
    ['an MD stage without steps', config('stages:\n  - { type: fire, fmax: 0.01 }\n  - { type: langevin, temperature: 1 }\nsinks: [{ path: o.xyz }]\n'), ['bad.yaml:6: stages[1].steps: is required']],
    ['an unknown hook type', config('stages:\n  - { type: fire, fmax: 0.01 }\nhooks:\n  - { type: Nope }\nsinks: [{ path: o.xyz }]\n'), ["bad.yaml:7: hooks[0].type 'Nope' is not a registered hook type; known types: ConvergedSnapshotHook, ConvergenceHook,"]],
    ['an unknown sink format', config('stages:\n  - { type: fire, fmax: 0.01 }\nsinks:\n  - { path: out.csv }\n'), ['bad.yaml:7: sinks[0].path: openSink: cannot tell the format of "out.csv"; use .xyz, .extxyz, .zarr, .traj, .lammpstrj, .dump, .h5md or .h5']],
    ['a middle stage nothing leaves', config('stages:\n  - { type: fire }\n  - { type: nve, steps: 10 }\nsinks: [{ path: o.xyz }]\n'), ['bad.yaml:5: stages[0]: needs fmax or steps, or systems never reach the next stage']],
    ['a model the constructor rejects', `units: lj
model: { type: lj, cutoff: 2.5, pairs: { 'Ar-Xx': { epsilon: 1, sigma: 1 } } }
input: clusters.xyz
stages: [{ type: fire }]
sinks: [{ path: o.xyz }]
`, ["bad.yaml:2: model.pairs: LennardJones: pairs key \"Ar-Xx\" names an unknown species \"Xx\""]],
    ['a missing input file', config('stages: [{ type: fire }]\nsinks: [{ path: o.xyz }]\n').replace('clusters.xyz', 'gone.xyz'), ['bad.yaml:3: input: gone.xyz does not exist']],
    ['a YAML syntax error', 'stages: [ { type: fire }\nmodel: 1\n', ['bad.yaml:2: ']],
  ])('%s', async (_, text, messages) => {
    // Each case gets its own directory (the messages name bad.yaml) so the cases can run concurrently.
    const caseDir = mkdtempSync(join(dir, 'case-'));
    writeFileSync(join(caseDir, 'bad.yaml'), text);
    writeFileSync(join(caseDir, 'clusters.xyz'), readFileSync(join(dir, 'clusters.xyz')));
    const result = await runCli(['run', 'bad.yaml'], { cwd: caseDir });
    for (const message of messages) expect(result.stderr).toContain(`hookmd: ${message}`);
    expect(result.stderr).not.toContain('hookmd: hookmd');
    expect(result.code).toBe(2);
  });
});

describe('failures while running exit 1', () => {
  it('a hook that throws mid-run ends it with exit 1 and names the hook', async () => {
    writeFileSync(join(dir, 'drift.yaml'), `units: lj
model: { type: lj, epsilon: 1, sigma: 1, cutoff: 2.5 }
input: clusters.xyz
stages:
  - { type: langevin, temperature: 1, friction: 10, steps: 400 }
hooks:
  - { type: EnergyDriftMonitorHook, frequency: 20, maxRelativeDrift: 1.0e-9 }
sinks:
  - { path: drift.xyz }
`);
    const result = await runCli(['run', 'drift.yaml', '--quiet'], { cwd: dir });
    expect(result.stderr).toContain('EnergyDriftMonitorHook: relative energy drift above 1e-9');
    expect(result.code).toBe(1);
  });

  it('errors from the native loader carry one prefix', async () => {
    // Without a usable CUDA binary the loader's error ends the run; on a GPU the run succeeds.
    const result = await runCli(['relax', 'clusters.xyz', '--units', 'lj', '--model', LJ_MODEL, '--backend', 'cuda', '--out', 'gpu.xyz', '--quiet'], { cwd: dir });
    expect(result.stderr).not.toContain('hookmd: hookmd');
    if (result.code !== 0) expect(result.stderr).toMatch(/^hookmd: .*(backend 'cuda' cannot run here|no native CUDA binary)/m);
  });

  it('--help and --version exit 0', async () => {
    expect((await runCli(['--help'])).code).toBe(0);
    const version = await runCli(['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(version.code).toBe(0);
  });
});
