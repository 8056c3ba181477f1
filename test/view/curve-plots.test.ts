// The curve plots of the page in Chromium, from an exported report opened offline: the NEB profile (the images
// as points among the fit's x values, the barrier written at the saddle), phonon bands with the special
// points as the x axis's labels and the DOS, and for the selected system its MSD against the log's time and
// its g(r).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { writeExtxyz } from '../../lib/io/index.js';
import { exportReport, loadViewData } from '../../lib/view/index.js';
import { NEB } from '../../lib/workflows/index.js';
import { argonModel, mdFiles, type MdFiles } from './fixtures.js';
import { hop, vacancy } from '../helpers/vacancy-hop.js';
import { CHROMIUM, launch, NO_BROWSER, outputPath, pageReady, plotSeries } from './browser.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });


const PHONONS = {
  format: 'hookmd-phonons', version: 1, unit: 'THz', supercell: [2, 2, 2],
  q: [[0, 0, 0], [0.25, 0, 0.25], [0.5, 0, 0.5], [0.5, 0.25, 0.75]],
  distance: [0, 0.5, 1, 1.5],
  labels: [{ label: 'G', distance: 0 }, { label: 'X', distance: 1 }, { label: 'W', distance: 1.5 }],
  frequencies: [[0, 0, 0], [1, 1, 2], [1.5, 1.5, 2.5], [1.8, 2, 2.4]],
  dos: { kpts: [4, 4, 4], frequencies: [0.5, 1.5, 2.5], dos: [0.2, 1.1, 1.7] },
};

describe.skipIf(CHROMIUM === undefined)(`curve plots in Chromium${CHROMIUM === undefined ? ` (skipped: ${NO_BROWSER})` : ''}`, () => {
  let browser: Browser;
  let md: MdFiles;
  let report: string;

  beforeAll(async () => {
    browser = await launch();
    md = await mdFiles();
    const result = await new NEB({ model: argonModel(), images: [vacancy, hop(0)], interpolate: 'linear', numImages: 5 }).run({ fmax: 0.05 });
    const band = join(md.dir, 'band.xyz');
    await writeExtxyz(band, result.paths[0]?.images ?? []);
    const bands = join(md.dir, 'bands.json');
    writeFileSync(bands, JSON.stringify(PHONONS));
    // MSD rows at every other logged step of the run's system (systemId 0), and a g(r) of four bins.
    const msd = join(md.dir, 'msd.csv');
    writeFileSync(msd, `step,time,systemId,msd\n${[0, 20, 40, 60].map((step) => `${step},,0,${step / 100}`).join('\n')}\n`);
    const rdf = join(md.dir, 'rdf.csv');
    writeFileSync(rdf, `systemId,frames,r,g\n${[0.5, 1.5, 2.5, 3.5].map((r, k) => `0,3,${r},${[0, 0.5, 2.5, 1][k]}`).join('\n')}\n`);
    report = join(md.dir, 'curves.html');
    await exportReport([band, bands, md.log, msd, rdf], report);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(): Promise<Page> {
    const context = await browser.newContext({ offline: true, viewport: { width: 1300, height: 900 } });
    const page = await context.newPage();
    await page.goto(`file://${report}`);
    await pageReady(page);
    return page;
  }

  it('draws the NEB profile, the phonon bands with their labels and the DOS', async () => {
    const data = await loadViewData([join(md.dir, 'band.xyz'), join(md.dir, 'bands.json')]);
    const profile = data.plots[0]?.series[0];
    const page = await open();
    const ids = (await page.evaluate('Object.keys(window.hookmdView.plots)')) as string[];
    expect(ids).toEqual(expect.arrayContaining(['neb-0', 'phonon-bands-1', 'phonon-dos-1']));
    // The images' energies at their reaction coordinates, among the fit's points (uPlot.join leaves the others undefined).
    const images = await plotSeries(page, 'neb-0', 'path 0');
    const drawn = images.x.map((x, i) => [x, images.y[i]]).filter(([, y]) => y !== null && y !== undefined);
    expect(drawn).toEqual(profile?.x.map((x, i) => [x, profile.y[i]]));
    const branch = await plotSeries(page, 'phonon-bands-1', 'branch 3');
    expect(branch).toEqual({ x: PHONONS.distance, y: PHONONS.frequencies.map((f) => f[2]) });
    const ticks = (await page.evaluate('window.hookmdView.plots["phonon-bands-1"].axes[0]._values')) as string[];
    expect(ticks).toEqual(['G', 'X', 'W']);
    expect(await page.locator('[data-plot="neb-0"] .note').textContent()).toMatch(/^path 0: barrier \d\.\d{6} eV at image 2/);
    // The saddle's barrier is written above its point: dark text pixels there, none in the empty corner.
    const dark = (await page.evaluate(`(() => {
      const u = window.hookmdView.plots['neb-0'];
      const mark = ${JSON.stringify(data.plots[0]?.marks?.[0])};
      const count = (x, y) => {
        const pixels = u.ctx.getImageData(x - 30, y - 24, 60, 16).data;
        let n = 0;
        for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 3] > 200 && pixels[i] < 90 && pixels[i + 1] < 90 && pixels[i + 2] < 90) n++;
        return n;
      };
      return [count(u.valToPos(mark.x, 'x', true), u.valToPos(mark.y, 'y', true)), count(u.valToPos(0.3, 'x', true), u.valToPos(mark.y, 'y', true))];
    })()`)) as [number, number];
    expect(dark[0]).toBeGreaterThan(20);
    expect(dark[1]).toBe(0);
    await page.locator('#plots').screenshot({ path: outputPath('curve-plots.png') });
    await page.context().close();
  });

  it('shows the selected system’s MSD beside its log and its g(r)', async () => {
    const page = await open();
    await page.evaluate('window.hookmdView.select("id:0")');
    const msd = await plotSeries(page, 'msd', 'msd');
    expect(msd.x).toHaveLength(md.rows);
    // Against the log's time (fs; dt = 2), which every row of this MD log has.
    expect(msd.x.map((time, i) => [time, msd.y[i]]).filter(([, v]) => v !== null)).toEqual([[0, 0], [40, 0.2], [80, 0.4], [120, 0.6]]);
    const g = await plotSeries(page, 'rdf-4-0', 'g(r)');
    expect(g).toEqual({ x: [0.5, 1.5, 2.5, 3.5], y: [0, 0.5, 2.5, 1] });
    // Another system's selection hides it.
    await page.evaluate('window.hookmdView.select("0:path0")');
    expect(await page.evaluate('"rdf-4-0" in window.hookmdView.plots')).toBe(false);
    await page.context().close();
  });
});
