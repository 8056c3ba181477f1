// Issue 26, item 11: the column lists the docs give for LoggingHook (formats.md) and for `--log` (cli.md)
// are the header the code writes, read from the hook itself, so a change of columns fails here until the
// docs follow. (formats.md listed `step, system, systemId, status, energy, fmax, temperature`.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { LoggingHook } from '../../lib/dynamics/hooks/logging-hook.js';
import { ROOT } from '../cli/run-cli.js';

const page = (name: string): string => readFileSync(join(ROOT, 'docs', name), 'utf8');
const header = (pressure: boolean): string[] => new LoggingHook({ writer: () => undefined, pressure }).header.slice();
// A documented list without its annotations: `time (fs in metal units, τ in lj)` is `time`.
const names = (list: string): string[] => list.replace(/\([^)]*\)/g, '').split(',').map((name) => name.trim());

describe('documented log columns are the written header (issue 26, item 11)', () => {
  it("formats.md's LoggingHook section", () => {
    const section = page('formats.md').split('### LoggingHook')[1];
    const [, plain, extra] = /each time it fires: `([^`]+)`[\s\S]*?with `pressure: true` also `([^`]+)`/.exec(section) ?? [];
    expect(names(plain)).toEqual(header(false));
    expect([...names(plain), ...names(extra)]).toEqual(header(true));
  });

  it("cli.md's --log rows of relax and md", () => {
    const rows = page('cli.md').split('\n').filter((line) => line.startsWith('| `--log file`'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(names(/(step, time[^|;]*fmax[^|;]*?)(;| \|)/.exec(row)?.[1] ?? '')).toEqual(header(false));
  });
});
