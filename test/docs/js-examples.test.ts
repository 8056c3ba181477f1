// Every ```js block of the guides below runs as written against the built package (`import … from
// 'hookmd'` resolves to this repository through a node_modules link), each block on its own, in a fresh
// directory; so does every ```ts block of the guides that list 'ts' (its types stripped by TypeScript's
// transpiler first). A block that throws, or exits non-zero, fails its test.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, ROOT, workDir } from '../cli/run-cli.js';

const GUIDES: ReadonlyArray<readonly [string, ReadonlyArray<'js' | 'ts'>]> = [
  ['README.md', ['js']],
  ['docs/dynamics.md', ['js']],
  ['docs/pipeline.md', ['js']],
  ['docs/hooks.md', ['js', 'ts']],
  ['docs/training.md', ['js', 'ts']],
];

function codeBlocks(markdown: string, languages: ReadonlyArray<'js' | 'ts'>): string[] {
  return [...markdown.matchAll(/```(js|ts)\n([\s\S]*?)```/g)]
    .filter((match) => languages.includes(match[1] as 'js' | 'ts'))
    .map((match) => (match[1] === 'ts' ? stripTypes(match[2]) : match[2]));
}

// The ts blocks as written, for the type check.
const typedExamples = GUIDES.filter(([, languages]) => languages.includes('ts')).flatMap(([guide]) =>
  [...readFileSync(join(ROOT, guide), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((match, index) => [`${guide} ts #${index + 1}`, match[1]] as const),
);

function stripTypes(code: string): string {
  return ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
}

const examples = GUIDES.flatMap(([guide, languages]) =>
  codeBlocks(readFileSync(join(ROOT, guide), 'utf8'), languages).map((code, index) => [`${guide} #${index + 1}`, code] as const),
);
let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = workDir('hookmd-js-docs-');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('js examples of the guides', () => {
  it('finds the examples of every guide that has them', () => {
    for (const guide of ['README.md', 'docs/dynamics.md', 'docs/pipeline.md', 'docs/hooks.md', 'docs/training.md']) {
      expect(examples.some(([name]) => name.startsWith(`${guide} `))).toBe(true);
    }
  });

  it('the ts blocks type-check, strict, against the built package', () => {
    const typed = join(dir, 'typed');
    mkdirSync(typed);
    const files = typedExamples.map(([name, code]) => {
      const file = join(typed, `${name.replace(/[^\w]+/g, '-')}.mts`);
      // Each block is a module of its own, so that their top-level names do not clash.
      writeFileSync(file, `${code}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  }, 150_000);

  it.each(examples)('%s', (name, code) => {
    const file = join(dir, `${name.replace(/[^\w]+/g, '-')}.mjs`);
    writeFileSync(file, code);
    const result = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, HOOKMD_THREADS: '2' } });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  }, 150_000);
});
