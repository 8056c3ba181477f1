// Issue 26, item 10: absurd runs are flagged. `md --dt 50` on EAM copper ended at ~1e12 K with exit 0 and a
// plain summary, and an empty input file gave "0/0 systems written", exit 0. Now the CLI warns on stderr
// and marks the summary when a temperature ends above 100× its start or target, when an NVE run's total
// energy drifts by more than 1% of its potential energy, or when the input holds no structure; --strict
// makes these exit 3.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bulk, repeat } from '../../lib/data/index.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { driftFindings, temperatureFindings, warningsOf } from '../../lib/cli/run-checks.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const CU_EAM = '/usr/share/lammps/potentials/Cu_u3.eam';
const haveEam = existsSync(CU_EAM);
const ARGON = 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5';
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeExtxyz(join(dir, 'cu.xyz'), [repeat(bulk('Cu', 'fcc', { cubic: true }), [3, 3, 3])]);
  await writeExtxyz(join(dir, 'ar.xyz'), [repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [2, 2, 2])]);
  writeFileSync(join(dir, 'empty.xyz'), '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the thresholds (issue 26, item 10)', () => {
  it('a temperature is flagged above 100× its reference, or when it is not finite; a reference of 0 flags nothing', () => {
    const found = temperatureFindings([30_000, 30_001, Number.NaN, 1e9], [300, 300, 300, 0], 'metal');
    expect(found.map((f) => f.text.split(':')[0])).toEqual(['system 1', 'system 2']);
  });

  it('an NVE run is flagged when |ΔE| exceeds 1% of |E_pot| at the start', () => {
    const start = { potential: Float64Array.of(-100, -100), total: Float64Array.of(-95, -95) };
    expect(driftFindings(start, [-94.1, -93.9], 'metal').map((f) => f.text.split(':')[0])).toEqual(['system 1']);
  });

  it('past three systems of a kind, the rest are counted', () => {
    const warnings = warningsOf(temperatureFindings([1e6, 1e6, 1e6, 1e6, 1e6], [1, 1, 1, 1, 1], 'lj'));
    expect(warnings).toHaveLength(4);
    expect(warnings[3]).toBe('2 more systems: temperature above 100× the start or target, or not finite');
  });
});

describe('flagged runs on the command line (issue 26, item 10)', () => {
  it.skipIf(!haveEam)(`md --dt 50 on EAM copper is flagged: temperature and NVE drift; --strict exits 3 ${haveEam ? '' : '(skipped: apt-get install lammps-data)'}`, async () => {
    const args = ['md', 'cu.xyz', '--model', `eam:${CU_EAM}`, '--temperature', '300', '--dt', '50', '--steps', '200', '--out', 'hot.xyz'];
    const plain = await runCli(args, { cwd: dir });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(/^hookmd: warning: system 0: temperature \S+ K is more than 100× its start or target/m);
    expect(plain.stderr).toMatch(/^hookmd: warning: system 0: the total energy of an NVE run drifted by/m);
    expect(plain.stdout).toMatch(/^md: 1\/1 systems, 200 steps in .* → hot\.xyz \[FLAGGED: 2 warnings\]$/m);
    const strict = await runCli([...args, '--strict', '--json'], { cwd: dir });
    expect(strict.code).toBe(3);
    expect((JSON.parse(strict.stdout) as { warnings: string[] }).warnings).toHaveLength(2);
  });

  it.skipIf(!haveEam)('a run config whose Langevin stage overheats flags the system that left hot', async () => {
    writeFileSync(join(dir, 'hot.yaml'), `model: { type: eam, file: ${CU_EAM} }
input: cu.xyz
stages:
  - { type: langevin, dt: 50, temperature: 300, friction: 0.001/fs, steps: 200 }
sinks: [{ path: hot-run.xyz }]
`);
    const result = await runCli(['run', 'hot.yaml', '--strict'], { cwd: dir });
    expect(result.stderr).toMatch(/^hookmd: warning: system 0 of the input: temperature \S+ K is more than 100× its start or target \(300\.0 K\)/m);
    expect(result.code).toBe(3);
  });

  it('a sound run is not flagged: --strict exits 0', async () => {
    const result = await runCli(['md', 'ar.xyz', '--model', ARGON, '--temperature', '40', '--dt', '5', '--steps', '200', '--out', 'ok.xyz', '--strict'], { cwd: dir });
    expect(result.stderr).not.toContain('warning');
    expect(result.stdout).not.toContain('FLAGGED');
    expect(result.code).toBe(0);
  });

  it.each([
    ['relax', ['relax', 'empty.xyz', '--model', ARGON, '--out', 'e1.xyz']],
    ['md', ['md', 'empty.xyz', '--model', ARGON, '--out', 'e2.xyz']],
    ['run', ['run', 'empty.yaml']],
  ])('%s of an empty input file is flagged; --strict exits 3', async (_, args) => {
    writeFileSync(join(dir, 'empty.yaml'), `model: { type: lj, epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }\ninput: empty.xyz\nstages: [{ type: fire, fmax: 0.01 }]\nsinks: [{ path: e3.xyz }]\n`);
    const plain = await runCli(args, { cwd: dir });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('hookmd: warning: empty.xyz holds no structures: nothing was computed');
    expect(plain.stdout).toContain('[FLAGGED: 1 warning]');
    expect((await runCli([...args, '--strict', '--quiet'], { cwd: dir })).code).toBe(3);
  });
});
