// Issue 26, item 11: the view page in a browser without WebGL (a remote desktop, a locked-down browser)
// shows its system table and plots, with a note where the 3D view would be. It used to show only
// "error: undefined": the 3D viewer failed and took the page with it.
import { rmSync } from 'node:fs';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { loadViewData, ViewServer } from '../../lib/view/index.js';
import { mdFiles, type MdFiles } from './fixtures.js';
import { CHROMIUM, launch, NO_BROWSER, pageReady, pageState } from './browser.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

describe.skipIf(CHROMIUM === undefined)(`view page without WebGL${CHROMIUM === undefined ? ` (skipped: ${NO_BROWSER})` : ''}`, () => {
  let browser: Browser;
  let md: MdFiles;

  beforeAll(async () => {
    browser = await launch({ webgl: false });
    md = await mdFiles();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(md.dir, { recursive: true, force: true });
  });

  it('shows the table, the plots and the frame slider, and a note in place of the 3D view', async () => {
    const files = [md.traj, md.log];
    const data = await loadViewData(files);
    const server = await ViewServer.start(() => data, { files });
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    try {
      await page.goto(server.url);
      expect(await page.evaluate("!!document.createElement('canvas').getContext('webgl')")).toBe(false);
      await pageReady(page);
      expect(await page.locator('#status').textContent()).not.toContain('error');
      expect(await page.locator('#no-webgl').textContent()).toContain('The 3D view needs WebGL');
      const state = await pageState(page);
      expect(state.systems).toBe(1);
      expect(state.plots.energy).toBe(md.rows);
      expect(state.plots.temperature).toBe(md.rows);
      await page.locator('#frame').fill('3');
      await expect.poll(() => page.locator('#frame-label').textContent()).toBe(`frame 4 / ${md.frames} · step 60`);
    } finally {
      await page.close();
      await server.close();
    }
  });
});
