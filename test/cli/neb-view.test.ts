// `hookmd neb --out` then `hookmd view --export`: the report plots the band's energy profile, whose images are
// the energies `hookmd neb` printed, relative to the first, and whose barrier note is the barrier it printed.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { writeExtxyz } from '../../lib/io/index.js';
import { hop, vacancy } from '../helpers/vacancy-hop.js';
import { reportData } from '../view/fixtures.js';
import { ensureBuilt, runCli, workDir } from './run-cli.js';

const LJ = 'lj:epsilon=0.0104,sigma=3.4,cutoff=8.5,shift=true';
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  for (const [name, state] of [['initial.xyz', vacancy], ['final.xyz', hop(0)]] as const) await writeExtxyz(join(dir, name), [state]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hookmd neb --out, then hookmd view --export', () => {
  it('plots the energy profile of the band with the barrier hookmd neb printed', async () => {
    const neb = await runCli(['neb', 'initial.xyz', 'final.xyz', '--model', LJ, '--interpolate', 'idpp', '--images', '5', '--climb', '--fmax', '0.01', '--json', '--quiet', '--out', 'band.xyz'], { cwd: dir });
    expect(neb.code, neb.stderr).toBe(0);
    const report = JSON.parse(neb.stdout) as { energies: number[]; barrier: number; saddleIndex: number };
    const view = await runCli(['view', 'band.xyz', '--export', 'report.html'], { cwd: dir });
    expect(view.code, view.stderr).toBe(0);
    const data = reportData(join(dir, 'report.html'));
    const [plot] = data.plots;
    expect(plot?.title).toBe('NEB energy profile: band.xyz');
    const images = plot?.series[0];
    expect(images?.y).toEqual(report.energies.map((e) => expect.closeTo(e - (report.energies[0] as number), 12)));
    expect(Math.max(...((images?.y ?? []) as number[]))).toBeCloseTo(report.barrier, 12);
    expect(plot?.notes).toEqual([expect.stringContaining(`barrier ${report.barrier.toFixed(6)} eV at image ${report.saddleIndex}`)]);
    // The reaction coordinate grows from image to image, and the slider walks the band.
    expect(images?.x[0]).toBe(0);
    expect((images?.x ?? []).every((x, i, all) => i === 0 || x > (all[i - 1] as number))).toBe(true);
    expect(data.systems.map((s) => s.frames.length)).toEqual([5]);
  });
});
