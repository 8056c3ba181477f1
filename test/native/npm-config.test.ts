// The project's npm configuration is one npm 11 understands (issue 39 item 38): no `.npmrc` keys npm warns
// about on every command, and the dependencies' install scripts decided by name in package.json's
// allowScripts (docs/install.md).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT } from '../cli/run-cli.js';

describe('npm configuration', () => {
  it('npm commands in the project print no warning about its configuration', () => {
    const result = spawnSync('npm', ['config', 'list'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/Unknown (project|user|env) config/);
  });

  it('the install scripts of the dependencies that have one are denied by name, not left unreviewed', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    expect(pkg.allowScripts).toEqual({ 'onnxruntime-node': false, 'msgpackr-extract': false });
    expect(existsSync(join(ROOT, '.npmrc'))).toBe(false);
    const listed = spawnSync('npm', ['install-scripts', 'ls'], { cwd: ROOT, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/No packages with unreviewed install scripts/);
  });
});
