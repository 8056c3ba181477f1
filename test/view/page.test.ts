// The view page in a real browser (headless Chromium): the 3D viewer draws the atoms in their element
// colours, the slider changes the picture, the plots have one point per log row or frame, the system
// table sorts, a live ViewHook streams its updates, and the exported report works offline.
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { exportReport, loadViewData, ViewHook, ViewServer } from '../../lib/view/index.js';
import { DynamicsStage, VelocityVerlet } from '../../lib/dynamics/index.js';
import { argonBatch, argonModel, mdFiles, movingFrames, trainingLog, type MdFiles } from './fixtures.js';
import { CHROMIUM, countHue, decodePng, differing, launch, NO_BROWSER, outputPath, pageReady, pageState, plotSeries } from './browser.js';
import { columnName } from '../../lib/dynamics/hooks/log-units.js';

// Software WebGL in a browser started per file is slow on a loaded machine (CI runs test files in parallel).
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

// Jmol's element colours, which the page asks 3Dmol for.
const ARGON: [number, number, number] = [0x80, 0xd1, 0xe3];
const COPPER: [number, number, number] = [0xc8, 0x80, 0x33];
const OXYGEN: [number, number, number] = [0xff, 0x0d, 0x0d];

/** Lines of a csv log minus its header, and frames of an extxyz file: counted from the files, not by hookmd. */
const csvRows = (path: string): number => readFileSync(path, 'utf8').trim().split('\n').length - 1;
/** One column of a csv log with plain cells, as numbers. */
function csvColumn(path: string, name: string): number[] {
  const [header, ...rows] = readFileSync(path, 'utf8').trim().split('\n').map((line) => line.split(','));
  return rows.map((cells) => Number(cells[header.map(columnName).indexOf(name)]));
}
const extxyzFrames = (path: string): number => (readFileSync(path, 'utf8').match(/Lattice=/g) ?? []).length;

describe.skipIf(CHROMIUM === undefined)(`view page in Chromium${CHROMIUM === undefined ? ` (skipped: ${NO_BROWSER})` : ''}`, () => {
  let browser: Browser;
  let md: MdFiles;

  beforeAll(async () => {
    browser = await launch();
    md = await mdFiles();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function viewer(page: Page): ReturnType<typeof decodePng> {
    return decodePng(page, await page.locator('#viewer').screenshot());
  }

  it('draws the atoms in their element colours, and the slider changes the frame', async () => {
    const path = await movingFrames(md.dir);
    const data = await loadViewData([path]);
    const server = await ViewServer.start(() => data, { files: [path] });
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    try {
      await page.goto(server.url);
      await pageReady(page);
      const first = await viewer(page);
      expect(countHue(first, COPPER)).toBeGreaterThan(300);
      expect(countHue(first, OXYGEN)).toBeGreaterThan(300);
      await page.locator('#frame').fill('2');
      expect((await pageState(page)).frameIndex).toBe(2);
      await expect.poll(() => page.locator('#frame-label').textContent()).toBe('frame 3 / 3 · step 2');
      const last = await viewer(page);
      // The cube became a line of atoms: a large part of the picture changed.
      expect(differing(first, last)).toBeGreaterThan(2000);
      expect(countHue(last, COPPER)).toBeGreaterThan(100);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('shows an MD trajectory with its log: a frame per snapshot, a plot point per log row', async () => {
    const files = [md.traj, md.log];
    const data = await loadViewData(files);
    const server = await ViewServer.start(() => data, { files });
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    try {
      await page.goto(server.url);
      await pageReady(page);
      const rows = csvRows(md.log);
      const state = await pageState(page);
      expect(state.plots).toEqual({ energy: rows, temperature: rows, fmax: rows });
      expect(await plotSeries(page, 'energy', 'energy')).toEqual({ x: csvColumn(md.log, 'step'), y: csvColumn(md.log, 'energy') });
      expect((await plotSeries(page, 'temperature', 'temperature')).y).toEqual(csvColumn(md.log, 'temperature'));
      expect(await page.locator('#frame').getAttribute('max')).toBe(String(extxyzFrames(md.traj) - 1));
      expect(countHue(await viewer(page), ARGON)).toBeGreaterThan(300);
      // The trajectory's download link serves the file itself.
      const href = await page.locator('#systems a', { hasText: 'traj.extxyz' }).getAttribute('href');
      expect(await (await fetch(new URL(href as string, server.url))).text()).toBe(readFileSync(md.traj, 'utf8'));
      const shot = outputPath('md-page.png');
      await page.screenshot({ path: shot });
      expect(statSync(shot).size).toBeGreaterThan(10_000);
      // frames.xyz: the system's frames as extxyz, made by the page; the same positions as the trajectory.
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#systems a', { hasText: 'frames.xyz' }).click()]);
      const saved = readExtxyz(await download.path());
      const original = readExtxyz(md.traj);
      expect(saved.map((f) => f.positions)).toEqual(original.map((f) => f.positions));
      expect(saved.map((f) => f.cell)).toEqual(original.map((f) => f.cell));
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('lists the systems of a many-system file, sortable by energy, and plots a training log per epoch', async () => {
    const path = join(md.dir, 'many.extxyz');
    const energies = [-1.5, -3.25, 2];
    await writeExtxyz(path, energies.map((energy, i) => ({ symbols: ['H', 'He', 'Li'].slice(0, i + 1), positions: Array.from({ length: i + 1 }, (_, k) => [k, 0, 0]), energy })));
    const fit = trainingLog(md.dir, 7);
    const data = await loadViewData([path, fit]);
    const server = await ViewServer.start(() => data, { files: [path, fit] });
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    try {
      await page.goto(server.url);
      await pageReady(page);
      expect((await pageState(page)).plots.training).toBe(7);
      const energyCells = (): Promise<number[]> => page.locator('#systems tr[data-key] td:nth-child(5)').allTextContents().then((t) => t.map(Number));
      expect(await energyCells()).toEqual(energies);
      await page.locator('#systems th[data-sort="energy"]').click();
      expect(await energyCells()).toEqual([...energies].sort((a, b) => a - b));
      await page.locator('#systems th[data-sort="energy"]').click();
      expect(await energyCells()).toEqual([...energies].sort((a, b) => b - a));
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('live: a 2,000-step MD with ViewHook({ frequency: 100 }) streams 20 updates to the page', async () => {
    const hook = new ViewHook({ frequency: 100 });
    const url = await hook.start();
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    try {
      await page.goto(url);
      await pageReady(page);
      await expect.poll(() => hook.clients).toBe(1);
      const md = new VelocityVerlet({ model: argonModel(), dt: 2, hooks: [hook] });
      // What the engine had at each update, seen by a hook of its own.
      const energies: number[] = [];
      md.register({ stage: DynamicsStage.AFTER_STEP, frequency: 100, call: (ctx) => { energies.push(ctx.scalars.energy[0]); } });
      await md.run(argonBatch(), { steps: 2000 });
      await expect.poll(() => pageState(page).then((s) => s.ended), { timeout: 20_000 }).toBe(true);
      const state = await pageState(page);
      expect(state.updates).toBe(20);
      expect(state.plots.energy).toBe(20);
      expect(await plotSeries(page, 'energy', 'energy')).toEqual({ x: Array.from({ length: 20 }, (_, k) => 100 * k), y: energies });
      expect(await page.locator('#frame').getAttribute('max')).toBe('19');
      expect(countHue(await viewer(page), ARGON)).toBeGreaterThan(300);
      await page.screenshot({ path: outputPath('live-page.png') });
    } finally {
      await page.close();
      hook.close();
    }
  });

  it('live: a page opened halfway gets the first half from the snapshot and the rest as events, each once', async () => {
    const hook = new ViewHook({ frequency: 100 });
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    try {
      const md = new VelocityVerlet({ model: argonModel(), dt: 2, hooks: [hook] });
      // The run waits for this async hook: the page opens after the update of step 1000.
      md.register({
        stage: DynamicsStage.AFTER_STEP, frequency: 1000, name: 'open page halfway',
        call: async (ctx) => {
          if (ctx.stepCount !== 1000) return;
          await page.goto(hook.url as string);
          await pageReady(page);
          await expect.poll(() => hook.clients).toBe(1);
        },
      });
      await md.run(argonBatch(), { steps: 2000 });
      await expect.poll(() => pageState(page).then((s) => s.ended), { timeout: 20_000 }).toBe(true);
      const state = await pageState(page);
      expect(state.updates).toBe(9);
      expect((await plotSeries(page, 'energy', 'energy')).x).toEqual(Array.from({ length: 20 }, (_, k) => 100 * k));
    } finally {
      await page.close();
      hook.close();
    }
  });

  it('the exported report is one file that works with networking off and shows the same plot', async () => {
    const out = join(md.dir, 'report.html');
    await exportReport([md.traj, md.log], out);
    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*\shref=/);
    const context = await browser.newContext({ offline: true, viewport: { width: 1300, height: 900 } });
    const requests: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    try {
      await page.goto(`file://${out}`);
      await pageReady(page);
      const rows = csvRows(md.log);
      expect((await pageState(page)).plots).toEqual({ energy: rows, temperature: rows, fmax: rows });
      expect(await plotSeries(page, 'energy', 'energy')).toEqual({ x: csvColumn(md.log, 'step'), y: csvColumn(md.log, 'energy') });
      expect(countHue(await viewer(page), ARGON)).toBeGreaterThan(300);
      expect(requests).toEqual([]);
      await page.screenshot({ path: outputPath('report.png') });
    } finally {
      await context.close();
    }
  });
});

// Keeps the docs' screenshot the one the test makes: `VIEW_DOCS_SCREENSHOT=1 npx vitest run test/view`.
afterAll(() => {
  if (process.env.VIEW_DOCS_SCREENSHOT === '1') copyFileSync(outputPath('md-page.png'), join(import.meta.dirname, '..', '..', 'docs', 'view.png'));
});
