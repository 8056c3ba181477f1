// Hook types by module path in `hookmd fit` and `hookmd run` configs ("./hooks/x.js#Export", resolved
// relative to the config file, not the working directory), errorPolicy and order from a config, console
// logging without code, and the run metadata `hookmd fit` prints and writes next to its outputs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { argonSet } from '../training/argon-data.js';
import { writeClusters } from './fixtures.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

let dir: string;

// A hook module in a subdirectory of the config's directory; the CLI runs from elsewhere.
const HOOKS = `import { appendFileSync } from 'node:fs';
export class Tally {
  constructor(args) { this.file = args.file; this.name = 'Tally'; this.count = 0; }
  onAfterStep() { this.count++; }
  onEpochEnd(ctx) { appendFileSync(this.file, 'epoch ' + ctx.epoch + '\\n'); }
  close() { appendFileSync(this.file, 'steps ' + this.count + '\\n'); }
}
export function failing() {
  return { name: 'Failing', onAfterStep() { throw new Error('flaky upload'); } };
}
`;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  mkdirSync(join(dir, 'project', 'hooks'), { recursive: true });
  mkdirSync(join(dir, 'elsewhere'));
  writeFileSync(join(dir, 'project', 'hooks', 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'project', 'hooks', 'tally.js'), HOOKS);
  const reference = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true });
  await writeExtxyz(join(dir, 'project', 'train.xyz'), argonSet(reference, { clusters: 3, crystals: 3, seed: 3 }));
  await writeClusters(join(dir, 'project'), 2);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fitConfig = (hooks: string): string => `model: { type: LennardJones, epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }
train: train.xyz
optimizer: { type: Adam, lr: 0.05 }
epochs: 2
batchSize: 3
hooks:
${hooks}`;

describe('hookmd fit', () => {
  it('loads hook types by module path relative to the config, and takes errorPolicy from the config', async () => {
    writeFileSync(join(dir, 'project', 'fit.yaml'), fitConfig([
      `  - { type: ./hooks/tally.js#Tally, file: ${JSON.stringify(join(dir, 'tally.txt'))} }`,
      '  - { type: ./hooks/tally.js#failing, errorPolicy: ignore }',
    ].join('\n')));
    const result = await runCli(['fit', '../project/fit.yaml', '--json', '--quiet'], { cwd: join(dir, 'elsewhere') });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'tally.txt'), 'utf8')).toBe('epoch 0\nepoch 1\nsteps 4\n');
    const summary = JSON.parse(result.stdout) as { epochs: number; metadata: { hooks: Array<{ name: string }> } };
    expect(summary.epochs).toBe(2);
    expect(summary.metadata.hooks.map((h) => h.name)).toEqual(['Tally', 'Failing', 'hookmd fit: metadata', 'hookmd fit: progress']);
  });

  it('prints the run metadata at the start and writes it next to --out; ConsoleLoggingHook logs from a config alone', async () => {
    writeFileSync(join(dir, 'project', 'console.yaml'), fitConfig('  - { type: ConsoleLoggingHook }'));
    const result = await runCli(['fit', 'project/console.yaml', '--out', 'fitted.json'], { cwd: dir });
    expect(result.code).toBe(0);
    const metadata = JSON.parse(readFileSync(join(dir, 'fitted.metadata.json'), 'utf8')) as { runId: string; gitCommit: string; configHash: string; hooks: unknown[] };
    expect(metadata.hooks).toHaveLength(3);
    expect(result.stderr).toContain(`fit: run ${metadata.runId} · commit ${metadata.gitCommit} · config ${metadata.configHash.slice(0, 12)} · hooks: ConsoleLoggingHook, hookmd fit: metadata`);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`run ${metadata.runId} · commit ${metadata.gitCommit} · config ${metadata.configHash.slice(0, 12)} · hooks: ConsoleLoggingHook, hookmd fit: metadata, hookmd fit: progress`);
    expect(lines[1]).toMatch(/^epoch 0 · step 2 · lr 0\.05 · loss /);
    expect(lines[2]).toMatch(/^epoch 1 · step 4 · /);
    expect(lines[3]).toMatch(/→ fitted\.json$/);
    expect(lines[4]).toBe('fit: run metadata → fitted.metadata.json');
  });

  it('names a module that cannot be loaded', async () => {
    writeFileSync(join(dir, 'project', 'missing.yaml'), fitConfig('  - { type: ./hooks/none.js#Nope }'));
    const result = await runCli(['fit', 'project/missing.yaml', '--quiet'], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/hooks\[0\]\.type.*cannot load '\.\/hooks\/none\.js'/);
  });
});

describe('hookmd run', () => {
  it('loads hook types by module path relative to the config, with errorPolicy from the config', async () => {
    writeFileSync(join(dir, 'project', 'run.yaml'), `units: lj
model: { type: lj, epsilon: 1, sigma: 1, cutoff: 2.5 }
input: clusters.xyz
stages:
  - { type: fire, fmax: 0.01, steps: 200 }
hooks:
  - { type: ./hooks/tally.js#Tally, file: ${JSON.stringify(join(dir, 'run-tally.txt'))}, order: 1 }
  - { type: ./hooks/tally.js#failing, errorPolicy: ignore }
sinks:
  - { path: ${JSON.stringify(join(dir, 'run-out.xyz'))} }
`);
    const result = await runCli(['run', '../project/run.yaml', '--quiet'], { cwd: join(dir, 'elsewhere') });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'run-tally.txt'), 'utf8')).toMatch(/^steps [1-9]\d*\n$/);
  });
});
