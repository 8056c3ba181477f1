// Issue 39, item 33: `using` / `await using` are a SyntaxError in plain JavaScript on Node 20 and 22, which
// hookmd supports: every page that shows them says so, and shows the `finally` that plain JavaScript writes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT } from '../cli/run-cli.js';

const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('`using` in the docs', () => {
  it('no ```js block uses it (Node 20 would not parse it)', () => {
    for (const page of pages) {
      const blocks = [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```js\b[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1]);
      for (const code of blocks) expect(code, page).not.toMatch(/^\s*(await\s+)?using\s+\w+\s*=/m);
    }
  });

  it('each page that shows it names TypeScript or Node ≥ 24 and the dispose call plain JavaScript makes', () => {
    const showing = pages.filter((page) => /\b(await )?using \w+ = /.test(readFileSync(join(ROOT, page), 'utf8')));
    expect(showing.length).toBeGreaterThan(0);
    for (const page of showing) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      expect(text, page).toMatch(/TypeScript \(5\.2 and later[^)]*\) or Node ≥ 24/);
      expect(text, page).toMatch(/\[Symbol\.(async)?[dD]ispose\]\(\)/);
    }
  });
});
