// `hookmd view --export`: the page for some files as one HTML file with its data, scripts and styles
// inlined, for a lab notebook or a CI artifact; it opens offline.
import { writeFileSync } from 'node:fs';

import { describeValue } from '../describe-value.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { checkViewPaths, loadViewData } from './load.js';
import { inlinePage } from './page.js';

/**
 * Writes the report of `paths` to `out`; resolves to its size in bytes. Download links of the source files
 * are left out (the report stands alone); each system's frames can still be saved as extxyz from the page.
 *
 * @example
 * await exportReport(['traj.extxyz', 'md.csv'], 'report.html');
 */
export async function exportReport(paths: readonly string[], out: string): Promise<number> {
  checkViewPaths(paths, 'exportReport');
  if (typeof out !== 'string' || out === '') {
    throw new HookmdTypeError('INVALID_ARGUMENT', `exportReport: out must be the path of the HTML file to write, got ${describeValue(out)}`, { field: 'out' });
  }
  const data = await loadViewData(paths);
  data.files = data.files.map((file) => ({ ...file, href: null }));
  const html = inlinePage(data);
  try {
    writeFileSync(out, html);
  } catch (error) {
    throw new HookmdError('VIEW_WRITE_FAILED', `view: cannot write ${out}: ${(error as Error).message}`, { path: out }, { cause: error });
  }
  return Buffer.byteLength(html);
}
