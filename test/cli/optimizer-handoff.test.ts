// Relaxation hands structures to MD at rest (docs/cli.md, "Stages"): an optimizer's velocities are its own
// bookkeeping, so a fire → nve run config starts NVE cold unless the nve stage asks for velocities, and
// `relax --log` reports no temperature that nothing had.
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat, type System } from '../../lib/data/index.js';
import { temperatures } from '../../lib/dynamics/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { LAMMPS_POTENTIALS } from '../helpers/lammps.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';
import { columnName } from '../../lib/dynamics/hooks/log-units.js';

const CU = join(LAMMPS_POTENTIALS, 'Cu_u3.eam');
const haveCopper = existsSync(CU);
const ARGON_MODEL = 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5';
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  const argon = [1, 2].map((seed) => rattle(repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [2, 2, 2]), 0.15, seed));
  await writeExtxyz(join(dir, 'argon.xyz'), argon);
  if (haveCopper) {
    const copper = [3, 4].map((seed) => rattle(repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [3, 3, 3]), 0.1, seed));
    await writeExtxyz(join(dir, 'copper.xyz'), copper);
    copyFileSync(CU, join(dir, 'Cu_u3.eam'));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function temperaturesOf(frames: System[]): number[] {
  return Array.from(temperatures(Batch.fromSystems(frames)));
}

async function runConfig(name: string, lines: string[]): Promise<{ code: number | null; stderr: string; frames: System[] }> {
  writeFileSync(join(dir, `${name}.yaml`), [...lines, 'sinks:', `  - { path: ${name}.xyz }`, ''].join('\n'));
  const result = await runCli(['run', `${name}.yaml`, '--quiet'], { cwd: dir });
  const frames = result.code === 0 ? readExtxyz(join(dir, `${name}.xyz`)) : [];
  return { code: result.code, stderr: result.stderr, frames };
}

describe('optimizer → MD in run configs', () => {
  it.skipIf(!haveCopper)('relaxed Cu in a fire → nve config stays cold; velocities: { temperature, seed } heats it', async () => {
    const model = 'model: { type: eam, file: Cu_u3.eam }';
    const cold = await runConfig('cu-cold', [model, 'input: copper.xyz', 'stages:', '  - { type: fire, fmax: 0.01, steps: 3000 }', '  - { type: nve, dt: 2, steps: 200 }']);
    expect(cold.stderr).toBe('');
    expect(cold.code).toBe(0);
    expect(cold.frames).toHaveLength(2);
    for (const t of temperaturesOf(cold.frames)) expect(t).toBeLessThan(5);
    const warm = await runConfig('cu-warm', [model, 'input: copper.xyz', 'stages:', '  - { type: fire, fmax: 0.01, steps: 3000 }', '  - { type: nve, dt: 2, steps: 200, velocities: { temperature: 600, seed: 3 } }']);
    expect(warm.code).toBe(0);
    // Equipartition takes half the kinetic energy into the potential: about 300 K after 400 fs.
    for (const t of temperaturesOf(warm.frames)) {
      expect(t).toBeGreaterThan(150);
      expect(t).toBeLessThan(600);
    }
  });

  it('relaxed argon in a fire → nve config stays cold, and nhc after an optimizer must say how to start', async () => {
    const head = [`model: { type: lj, epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }`, 'input: argon.xyz', 'stages:', '  - { type: fire, fmax: 0.01, steps: 3000 }'];
    const cold = await runConfig('ar-cold', [...head, '  - { type: nve, dt: 5, steps: 200 }']);
    expect(cold.code).toBe(0);
    for (const t of temperaturesOf(cold.frames)) expect(t).toBeLessThan(1);
    const stuck = await runConfig('ar-nhc', [...head, '  - { type: nhc, dt: 5, temperature: 40, steps: 200 }']);
    expect(stuck.code).not.toBe(0);
    expect(stuck.stderr).toMatch(/stages\[1\]: systems arrive at rest from an optimizer.*add velocities: \{ temperature: 40 \}/);
    const nhc = await runConfig('ar-nhc-warm', [...head, '  - { type: nhc, dt: 5, temperature: 40, steps: 200, velocities: { temperature: 40, seed: 1 } }']);
    expect(nhc.code).toBe(0);
    for (const t of temperaturesOf(nhc.frames)) expect(t).toBeGreaterThan(5);
  });
});

describe('a Nosé–Hoover stage on input at rest (issue 39, item 1)', () => {
  it('a first nhc stage exits 2 with COLD_START naming velocities: { temperature, seed }; with them it runs', async () => {
    const head = [`model: { type: lj, epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 }`, 'input: argon.xyz', 'stages:'];
    const cold = await runConfig('first-nhc', [...head, '  - { type: nhc, dt: 2, temperature: 40, steps: 10 }']);
    expect(cold.code).toBe(2);
    expect(cold.stderr).toContain('is at rest, and NoseHooverChain only rescales the velocities it is given');
    expect(cold.stderr).toContain('velocities: { temperature: 40, seed: 1 }');
    const warm = await runConfig('first-nhc-warm', [...head, '  - { type: nhc, dt: 2, temperature: 40, steps: 10, velocities: { temperature: 40, seed: 1 } }']);
    expect(warm.code).toBe(0);
  });
});

describe('relax --log', () => {
  it('logs the atoms at rest (temperature 0), and writes no momenta', async () => {
    const result = await runCli(['relax', 'argon.xyz', '--model', ARGON_MODEL, '--fmax', '0.01', '--log', 'relax.csv', '--log-every', '1', '--out', 'relaxed.xyz', '--quiet'], { cwd: dir });
    expect(result.code).toBe(0);
    const rows = readFileSync(join(dir, 'relax.csv'), 'utf8').trimEnd().split('\n');
    const header = rows[0].split(',').map(columnName);
    const temperature = header.indexOf('temperature');
    const kinetic = header.indexOf('kineticEnergy');
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows.slice(1)) {
      const cells = row.split(',');
      expect(Number(cells[temperature])).toBe(0);
      expect(Number(cells[kinetic])).toBe(0);
    }
    expect(readFileSync(join(dir, 'relaxed.xyz'), 'utf8')).not.toContain('momenta');
  });
});
