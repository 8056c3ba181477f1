// The view page's HTML: the layout, with its scripts and styles either linked (served by ViewServer) or
// inlined together with the data (a report that works offline as one file).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import type { ViewData } from './view-model.js';

const require = createRequire(import.meta.url);

/** A file the page loads: where it is, and its content type. */
export interface ViewAsset {
  path: string;
  type: string;
}

let assets: Readonly<Record<string, ViewAsset>> | null = null;

/**
 * The files the page loads, by the name it asks for under `assets/`. Resolved at first use, not when
 * hookmd is imported: programs that never show a page do not look for the bundles.
 */
export function viewAssets(): Readonly<Record<string, ViewAsset>> {
  assets ??= Object.freeze({
    '3Dmol-min.js': { path: require.resolve('3dmol/build/3Dmol-min.js'), type: 'text/javascript; charset=utf-8' },
    'uPlot.iife.min.js': { path: require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript; charset=utf-8' },
    'uPlot.min.css': { path: require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css; charset=utf-8' },
    // lib/view and dist/view are both two levels below the package root, where assets/ lives.
    'view.js': { path: fileURLToPath(new URL('../../assets/view/client.js', import.meta.url)), type: 'text/javascript; charset=utf-8' },
  });
  return assets;
}

const STYLE = `
body { font: 14px system-ui, sans-serif; margin: 0; color: #222; }
header { padding: 8px 16px; background: #24323f; color: #fff; display: flex; gap: 16px; align-items: baseline; }
header h1 { font-size: 16px; margin: 0; }
#status { color: #9fd3a8; }
main { display: grid; grid-template-columns: minmax(360px, 1fr) minmax(360px, 1fr); gap: 12px; padding: 12px 16px; }
main > section { min-width: 0; }
.table-wrap { overflow-x: auto; }
#viewer { position: relative; width: 100%; height: 420px; border: 1px solid #ccc; }
#no-webgl { margin: 0; padding: 1em; color: #555; }
.controls { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
#frame { flex: 1; }
table { border-collapse: collapse; width: 100%; margin-top: 8px; font-size: 13px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 4px; text-align: right; white-space: nowrap; }
th { cursor: pointer; background: #f3f5f7; user-select: none; }
th:first-child, td:first-child, th:last-child, td:last-child { text-align: left; }
tr.selected td { background: #e3efff; }
tbody tr, tr[data-key] { cursor: pointer; }
.plot { margin-bottom: 8px; }
.plot .note { margin: 2px 0 0 8px; font-size: 13px; color: #444; }
`;

function body(scripts: string): string {
  return `<body>
<header><h1>hookmd view</h1><span id="title"></span><span id="status"></span></header>
<main>
<section id="structure">
<div id="viewer"></div>
<div class="controls"><button id="play" type="button">▶ play</button><input id="frame" type="range" min="0" max="0" value="0" aria-label="frame"><span id="frame-label"></span></div>
<div class="table-wrap"><table id="systems"></table></div>
</section>
<section id="plots"></section>
</main>
${scripts}
</body>
</html>
`;
}

const head = (extra: string): string =>
  `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>hookmd view</title>\n<style>${STYLE}</style>\n${extra}</head>\n`;

/** The page a ViewServer serves: scripts and styles from `assets/`, data from `data.json`. */
export function servedPage(): string {
  const scripts = ['3Dmol-min.js', 'uPlot.iife.min.js', 'view.js'].map((name) => `<script src="assets/${name}"></script>`).join('\n');
  return head('<link rel="stylesheet" href="assets/uPlot.min.css">\n') + body(scripts);
}

// Text inside <script> ends at the first "</script"; JSON and the bundles are made safe for it.
const scriptSafe = (text: string): string => text.replace(/<\/(script)/gi, '<\\/$1');

/** One self-contained page: every script, style and the data inlined, so it opens offline. */
export function inlinePage(data: ViewData): string {
  const asset = (name: string): string => readFileSync(viewAssets()[name].path, 'utf8');
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  const scripts = [
    `<script>window.HOOKMD_DATA = ${json};</script>`,
    ...['3Dmol-min.js', 'uPlot.iife.min.js', 'view.js'].map((name) => `<script>${scriptSafe(asset(name))}</script>`),
  ].join('\n');
  return head(`<style>${asset('uPlot.min.css')}</style>\n`) + body(scripts);
}
