// Headless Chromium for the view tests, driven by playwright-core. The browser is Debian's `chromium`
// (.ci/run installs it); without one the browser tests skip and say why. WebGL runs on SwiftShader, the
// software GPU, so the 3D viewer draws on machines without a graphics card.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Browser, type Page } from 'playwright-core';

import { ROOT } from '../cli/run-cli.js';

const CANDIDATES = [process.env.HOOKMD_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium executable, or undefined when none is installed. */
export const CHROMIUM: string | undefined = CANDIDATES.find((path): path is string => path !== undefined && path !== '' && existsSync(path));

/** Why the browser tests skip, for the test names. */
export const NO_BROWSER = 'no Chromium (apt-get install chromium, or set HOOKMD_CHROMIUM)';

/** Where the tests leave their screenshots. */
export const OUTPUT_DIR: string = join(ROOT, 'test-output', 'view');

export function outputPath(name: string): string {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  return join(OUTPUT_DIR, name);
}

/** Starts Chromium with software WebGL, or with `webgl: false` with none at all (as some browsers are). */
export function launch(options: { webgl?: boolean } = {}): Promise<Browser> {
  const graphics = options.webgl === false
    ? ['--disable-3d-apis', '--disable-webgl', '--disable-gpu']
    : ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', ...graphics] });
}

// Code that runs in the page is given as text: the tests are type-checked without the DOM's types.

/** Waits for the page's first render; fails with the page's own error if it has one. */
export async function pageReady(page: Page): Promise<void> {
  await page.waitForFunction('window.hookmdView !== undefined && (window.hookmdView.rendered || window.hookmdView.error !== undefined)', null, { timeout: 30_000 });
  const error = (await page.evaluate('window.hookmdView.error')) as string | undefined;
  if (error !== undefined) throw new Error(`view page failed: ${error}`);
}

/** RGBA pixels of a PNG, decoded by the browser itself. */
export interface Pixels {
  width: number;
  height: number;
  data: number[];
}

/** Decodes `png` (a screenshot) in `page` and returns its pixels. */
export async function decodePng(page: Page, png: Buffer): Promise<Pixels> {
  return (await page.evaluate(`(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    return { width: bitmap.width, height: bitmap.height, data: Array.from(context.getImageData(0, 0, bitmap.width, bitmap.height).data) };
  })(${JSON.stringify(png.toString('base64'))})`)) as Pixels;
}

/** Pixels within `tolerance` (per channel) of the colour `rgb`. */
export function countColour(pixels: Pixels, rgb: readonly [number, number, number], tolerance: number): number {
  let n = 0;
  for (let i = 0; i < pixels.data.length; i += 4) {
    if (Math.abs(pixels.data[i] - rgb[0]) <= tolerance && Math.abs(pixels.data[i + 1] - rgb[1]) <= tolerance && Math.abs(pixels.data[i + 2] - rgb[2]) <= tolerance) n++;
  }
  return n;
}

/** Pixels whose hue is close to `rgb`'s: shading darkens a sphere's colour but keeps its hue. */
export function countHue(pixels: Pixels, rgb: readonly [number, number, number]): number {
  const hue = (r: number, g: number, b: number): number | null => {
    const max = Math.max(r, g, b), min = Math.min(r, g, b);
    if (max - min < 40) return null; // grey, white, black: no hue
    const h = max === r ? (g - b) / (max - min) : max === g ? 2 + (b - r) / (max - min) : 4 + (r - g) / (max - min);
    return ((h * 60) + 360) % 360;
  };
  const target = hue(...rgb) as number;
  let n = 0;
  for (let i = 0; i < pixels.data.length; i += 4) {
    const h = hue(pixels.data[i], pixels.data[i + 1], pixels.data[i + 2]);
    if (h !== null && Math.min(Math.abs(h - target), 360 - Math.abs(h - target)) < 12) n++;
  }
  return n;
}

/** Pixels that differ (any channel by more than 30) between two images of the same size. */
export function differing(a: Pixels, b: Pixels): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i] - b.data[i]) > 30 || Math.abs(a.data[i + 1] - b.data[i + 1]) > 30 || Math.abs(a.data[i + 2] - b.data[i + 2]) > 30) n++;
  }
  return n;
}

/** What the page reports about itself (window.hookmdView). */
export interface PageState {
  plots: Record<string, number>;
  frameIndex: number;
  updates: number;
  ended: boolean;
  systems: number;
}

export async function pageState(page: Page): Promise<PageState> {
  return (await page.evaluate(`(() => {
    const view = window.hookmdView;
    return {
      plots: Object.fromEntries(Object.entries(view.plots).map(([id, plot]) => [id, plot.data[0].length])),
      frameIndex: view.frameIndex,
      updates: view.updates,
      ended: view.ended,
      systems: document.querySelectorAll('#systems tr[data-key]').length,
    };
  })()`)) as PageState;
}

/** The x values and one series of a plot on the page, by the series' label. */
export async function plotSeries(page: Page, plot: string, label: string): Promise<{ x: number[]; y: Array<number | null> }> {
  return (await page.evaluate(`(() => {
    const plot = window.hookmdView.plots[${JSON.stringify(plot)}];
    const index = plot.series.findIndex((s) => s.label === ${JSON.stringify(label)});
    return { x: Array.from(plot.data[0]), y: Array.from(plot.data[index]) };
  })()`)) as { x: number[]; y: Array<number | null> };
}
