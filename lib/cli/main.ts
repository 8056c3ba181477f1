// The `hookmd` command line. Exit codes: 0 OK, 1 runtime failure, 2 bad usage or bad input.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Command, CommanderError } from 'commander';

import { HookmdError, isHookmdError } from '../errors.js';
import { backendInfo, PACKAGE_ROOT, setThreads } from '../native/index.js';
import { runDemo } from './demo.js';

function version(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

function program(): Command {
  const cli = new Command('hookmd')
    .description('Batched atomistic simulation with hookable stages')
    .version(version())
    .exitOverride()
    .option('--threads <n>', 'CPU threads (default: every core)', (v) => Number(v));

  cli
    .command('demo')
    .description('relax 256 perturbed Argon LJ13 clusters with FIRE, then run NVT on an fcc crystal')
    .option('--json', 'print the summary as JSON')
    .action(async (options: { json?: boolean }) => {
      const { rows, text } = await runDemo();
      console.log(options.json ? JSON.stringify(rows, null, 2) : text);
    });

  cli
    .command('info')
    .description('version, backends, threads, and the CUDA device or why there is none')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => {
      const info = { version: version(), ...backendInfo() };
      if (options.json) console.log(JSON.stringify(info, null, 2));
      else for (const [key, value] of Object.entries(info)) console.log(`${key.padEnd(15)} ${String(value ?? '-')}`);
    });

  cli.hook('preAction', (root) => {
    const threads = root.opts<{ threads?: number }>().threads;
    if (threads !== undefined) setThreads(threads);
  });
  return cli;
}

/** Runs the command line; resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    await program().parseAsync(argv as string[]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (isHookmdError(error)) {
      console.error(`hookmd: ${error.message}`);
      // Range and type errors reject the input; other typed errors happen while running.
      return error instanceof HookmdError ? 1 : 2;
    }
    console.error(error);
    return 1;
  }
}
