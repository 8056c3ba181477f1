// Issue 39, item 7: outputs describe the run that wrote them. A relaxed input carries its relaxation's
// converged/steps/status in `info`; MD frames and final frames written from it do not.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Batch, HostMemorySink, initializeVelocities, LennardJones, SnapshotHook, VelocityVerlet } from '../../lib/index.js';
import { ljFcc } from '../dynamics/lj-systems.js';
import { ensureBuilt, runCli, workDir } from '../cli/run-cli.js';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = workDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an earlier run's bookkeeping does not reach a later run's outputs", () => {
  it('SnapshotHook frames keep user info and drop converged, steps and status', async () => {
    const relaxed = { ...ljFcc(2), info: { systemId: 0, converged: true, steps: 126, status: 1, tag: 'mine' } };
    const batch = Batch.fromSystems([relaxed], { units: 'lj' });
    initializeVelocities(batch, { temperature: 0.5, seed: 1 });
    const sink = new HostMemorySink();
    await new VelocityVerlet({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }), dt: 0.005, hooks: [new SnapshotHook({ sink, frequency: 5 })] }).run(batch, { steps: 5 });
    const frames = sink.read();
    expect(frames.length).toBe(2);
    for (const frame of frames) expect(frame.info).toEqual({ systemId: 0, tag: 'mine', step: frame.info?.step });
  });

  it('hookmd relax | hookmd md: MD frames carry step, not the relaxation\'s converged/steps/status', async () => {
    writeFileSync(join(dir, 'lj.json'), JSON.stringify({ type: 'lj', epsilon: 1, sigma: 1, cutoff: 2.5 }));
    const input = ['4', 'Lattice="3.2 0 0 0 3.2 0 0 0 3.2" Properties=species:S:1:pos:R:3 pbc="T T T"', 'Ar 0 0 0', 'Ar 0 1.62 1.6', 'Ar 1.6 0 1.6', 'Ar 1.6 1.6 0', ''].join('\n');
    writeFileSync(join(dir, 'in.xyz'), input);
    const relax = await runCli(['relax', 'in.xyz', '--units', 'lj', '--model-config', 'lj.json', '--fmax', '1e-3', '--out', 'relaxed.xyz', '--quiet'], { cwd: dir });
    expect(relax.code).toBe(0);
    expect(readFileSync(join(dir, 'relaxed.xyz'), 'utf8')).toContain('converged=T');
    const md = await runCli(['md', 'relaxed.xyz', '--units', 'lj', '--model-config', 'lj.json', '--ensemble', 'langevin', '--temperature', '0.5', '--steps', '10', '--traj', 'traj.xyz', '--traj-every', '5', '--out', 'final.xyz', '--quiet'], { cwd: dir });
    expect(md.code).toBe(0);
    for (const file of ['traj.xyz', 'final.xyz']) {
      const headers = readFileSync(join(dir, file), 'utf8').split('\n').filter((line) => line.startsWith('Lattice='));
      expect(headers.length).toBeGreaterThan(0);
      for (const header of headers) {
        expect(header).toMatch(/ step=\d+/);
        expect(header).not.toMatch(/ (converged|steps|status)=/);
      }
    }
  });
});
