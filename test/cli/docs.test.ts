// Every example in docs/cli.md is a command that runs here. Blocks titled with a file name
// (```yaml title="pipeline.yaml") are written to the working directory first; each line of a ```sh block
// is run by bash, in order, in that one directory, with `hookmd` on the PATH; `# exits N` states the
// expected exit code (default 0). A ```text block right after a one-command ```sh block is that
// command's output: each of its lines must match an output line, numbers and `…` standing for any value.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CONFIG_SCHEMA } from '../../lib/cli/config-schema.js';
import { STAGE_TYPES } from '../../lib/cli/stage-types.js';
import { BIN, ensureBuilt, ROOT, workDir } from './run-cli.js';

interface Example {
  command: string;
  exitCode: number;
  output: string[];
}

interface Doc {
  files: Array<[string, string]>;
  examples: Example[];
}

function parseDoc(markdown: string): Doc {
  const files: Array<[string, string]> = [];
  const examples: Example[] = [];
  const fence = /```(\w*)([^\n]*)\n([\s\S]*?)```\n?/g;
  let previous: { end: number; examples: Example[] } | undefined;
  for (const match of markdown.matchAll(fence)) {
    const [whole, language, info, body] = match;
    const start = match.index;
    const title = /title="([^"]+)"/.exec(info)?.[1];
    if (title !== undefined) files.push([title, body]);
    else if (language === 'sh') {
      const commands = body.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
      const block = commands.map((line) => {
        const exits = /#\s*exits\s+(\d+)\s*$/.exec(line);
        return { command: line.replace(/\s+#.*$/, ''), exitCode: exits === null ? 0 : Number(exits[1]), output: [] as string[] };
      });
      examples.push(...block);
      previous = { end: start + whole.length, examples: block };
      continue;
    } else if (language === 'text' && previous !== undefined && previous.examples.length === 1 && markdown.slice(previous.end, start).trim() === '') {
      previous.examples[0].output = body.trimEnd().split('\n');
    }
    previous = undefined;
  }
  return { files, examples };
}

/** A documented output line as a pattern: numbers and `…` match any value. */
function linePattern(line: string): RegExp {
  const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\d+(\\\.\d+)?/g, '[\\d.]+').replace(/…/g, '.*')}$`);
}

const doc = parseDoc(readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8'));
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  ensureBuilt();
  dir = workDir('hookmd-docs-');
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'hookmd'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'hookmd'), 0o755);
  env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  for (const [name, text] of doc.files) writeFileSync(join(dir, name), text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/cli.md', () => {
  it('has examples of every command, and their input files', () => {
    for (const command of ['info', 'relax', 'md', 'run', 'merge', 'schema', 'demo', 'neb']) {
      expect(doc.examples.some((e) => e.command.startsWith(`hookmd ${command} `) || e.command === `hookmd ${command}`)).toBe(true);
    }
    expect(doc.files.map(([name]) => name)).toEqual(expect.arrayContaining(['argon.xyz', 'pipeline.yaml', 'broken.yaml']));
  });

  it('lists every stage type a run config takes, each with its engine (issue 26, item 11)', () => {
    const markdown = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    const documented = [...markdown.matchAll(/^\s*\| `([\w-]+)` \| `(\w+)`/gm)].map(([, type, engine]) => [type, engine]);
    const stages = (CONFIG_SCHEMA.$defs?.stage.oneOf ?? []).map((variant) => variant.properties?.type?.const);
    expect(documented.map(([type]) => type)).toEqual(stages);
    expect(STAGE_TYPES.names).toEqual(stages);
    for (const [type, engine] of documented) expect(STAGE_TYPES.resolve(engine), engine).toBe(type);
  });

  it.each(doc.examples.map((example) => [example.command, example] as const))('%s', (_, example) => {
    const result = spawnSync('bash', ['-c', example.command], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
    const printed = `${result.stdout}${result.stderr}`;
    expect(result.status, printed).toBe(example.exitCode);
    const lines = printed.split('\n').map((line) => line.trimEnd());
    for (const expected of example.output) {
      const pattern = linePattern(expected.trimEnd());
      expect(lines.some((line) => pattern.test(line)), `no output line matches ${JSON.stringify(expected)} in:\n${printed}`).toBe(true);
    }
  });
});
