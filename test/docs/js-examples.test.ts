// Every ```js and ```ts block of README.md and of every page under docs/ runs as written against the built
// package (`import … from 'hookmd'` resolves to this repository through a node_modules link), each block on
// its own, in a fresh directory holding the inputs of docs/examples/. TypeScript blocks are compiled to
// JavaScript first (types erased, nothing else changed). A block that throws, or exits non-zero, fails its
// test. Blocks marked ```ts fragment (API synopses with placeholders) are skipped, and so are blocks titled
// with a file name (```js title="count-hook.mjs"), which are inputs of docs/cli.md's shell examples, run by
// test/cli/docs.test.ts. What a block shows it prints, in `// → value` comments, must be what it printed
// (printed.ts: in order, whitespace aside, numbers to the digits written).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, ROOT, workDir } from '../cli/run-cli.js';
import { printedExpectations, unmatched } from './printed.js';

const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];

interface Example {
  name: string;
  language: 'js' | 'ts';
  code: string;
}

interface Blocks {
  run: Example[];
  skipped: string[];
}

function blocks(page: string): Blocks {
  const markdown = readFileSync(join(ROOT, page), 'utf8');
  const run: Example[] = [];
  const skipped: string[] = [];
  let index = 0;
  for (const match of markdown.matchAll(/```(js|ts)\b([^\n]*)\n([\s\S]*?)```/g)) {
    const [, language, info, code] = match;
    index += 1;
    const name = `${page} #${index}`;
    if (/\bfragment\b|title=/.test(info)) skipped.push(name);
    else run.push({ name, language: language as 'js' | 'ts', code });
  }
  return { run, skipped };
}

const pages = PAGES.map((page) => ({ page, ...blocks(page) }));
const examples = pages.flatMap((p) => p.run);
let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = workDir('hookmd-js-docs-');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function javascript(example: Example): string {
  if (example.language === 'js') return example.code;
  return ts.transpileModule(example.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
}

/** tsc's messages for `examples`, each compiled as a module of its own in a project that installed hookmd. */
function typeErrors(examples: readonly Example[]): string[] {
  const cwd = mkdtempSync(join(dir, 'types-'));
  mkdirSync(join(cwd, 'node_modules'));
  symlinkSync(ROOT, join(cwd, 'node_modules', 'hookmd'), 'dir');
  writeFileSync(join(cwd, 'package.json'), '{ "type": "module" }\n');
  const files = examples.map((example, i) => {
    const file = join(cwd, `block-${i}.ts`);
    // `export {}` keeps each block a module, so top-level await and names do not leak between blocks.
    writeFileSync(file, `${example.code}\nexport {};\n`);
    return [file, example.name] as const;
  });
  const program = ts.createProgram(files.map(([file]) => file), {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
  });
  const names = new Map(files);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file === undefined ? '' : `${names.get(d.file.fileName) ?? d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `;
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

function run(example: Example): { status: number | null; output: string; stdout: string } {
  // A directory per block, with the shipped inputs: a block cannot lean on files another block wrote.
  const cwd = mkdtempSync(join(dir, 'block-'));
  cpSync(join(ROOT, 'docs', 'examples'), cwd, { recursive: true });
  mkdirSync(join(cwd, 'node_modules'));
  symlinkSync(ROOT, join(cwd, 'node_modules', 'hookmd'), 'dir');
  const file = join(cwd, 'example.mjs');
  writeFileSync(file, javascript(example));
  const result = spawnSync(process.execPath, [file], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, HOOKMD_THREADS: '2' } });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}`, stdout: result.stdout };
}

describe('code blocks of README.md and docs/*.md', () => {
  it('covers every page, and every block is run or marked as a fragment', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'docs/dynamics.md', 'docs/formats.md', 'docs/hooks.md', 'docs/models.md', 'docs/pipeline.md', 'docs/training.md', 'docs/cuda.md']));
    for (const page of ['README.md', 'docs/dynamics.md', 'docs/formats.md', 'docs/models.md', 'docs/pipeline.md', 'docs/cuda.md']) {
      expect(examples.some((e) => e.name.startsWith(`${page} `)), page).toBe(true);
    }
  });

  it.each(examples.map((e) => [e.name, e] as const))('%s runs and prints what it shows', (_, example) => {
    const { status, output, stdout } = run(example);
    expect(status, output).toBe(0);
    expect(unmatched(stdout, printedExpectations(example.code))).toBeUndefined();
  }, 150_000);

  it('pages show what their blocks print as `// →` comments, not as bare comments after a console.log', () => {
    const bare = examples.flatMap((example) => example.code.split('\n').filter((line) => /console\.log\(.*\);\s*\/\/ (?!→)/.test(line)).map((line) => `${example.name}: ${line.trim()}`));
    expect(bare).toEqual([]);
  });

  it('the TypeScript blocks type-check against the published declarations (strict)', () => {
    const checked = examples.filter((e) => e.language === 'ts');
    expect(checked.length).toBeGreaterThan(3);
    expect(typeErrors(checked)).toEqual([]);
  }, 60_000);
});

describe('matching printed values (issue 26, item 11)', () => {
  it('finds each expectation in order, whitespace aside, with … for anything', () => {
    const stdout = "step 58 newly [ 1, 1 ] status [ 1, 1 ]\n{\n  steps: 119,\n  converged: Uint8Array(2) [ 1, 1 ],\n  activeAtStart: 2\n}\n";
    expect(unmatched(stdout, ['step 58 newly [1, 1] status [1, 1]', '{ steps: 119, converged: Uint8Array(2) [ 1, 1 ], … }'])).toBeUndefined();
    expect(unmatched(stdout, ['{ steps: 125, …'])).toMatch(/expected "\{ steps: 125, …"/);
    expect(unmatched(stdout, ['steps: 119', 'step 58'])).toBeDefined();
  });

  it('takes numbers to the digits written', () => {
    expect(unmatched('-44.326801378788986 2.1834e-3\n', ['-44.3268 2.18e-3'])).toBeUndefined();
    expect(unmatched('-44.326801378788986\n', ['-44.3270'])).toBeDefined();
    expect(unmatched('119\n', ['120'])).toBeDefined();
    expect(unmatched('[ 20.3, 39.1, 60.9 ]\n', ['[ ≈20, ≈40, ≈60 ]'])).toBeUndefined();
    expect(unmatched('[ 20.3, 37.1, 60.9 ]\n', ['[ ≈20, ≈40, ≈60 ]'])).toBeDefined();
  });

  it('reads `// →` comments after statements and on lines of their own', () => {
    expect(printedExpectations("console.log(x); // → 5\n// → [1, 2]\n// a remark\n")).toEqual(['5', '[1, 2]']);
  });
});
