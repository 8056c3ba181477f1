// `hookmd view <file…>`: serves the view page for extxyz files, ZarrSink stores and logs on 127.0.0.1
// until Ctrl-C, or writes it as one HTML file (--export). Also the --view flag of md, relax, run and fit,
// which attaches a ViewHook to the run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

import type { Command } from 'commander';

import { exportReport, loadViewData, ViewHook, ViewServer } from '../../view/index.js';
import { configError } from '../config-file.js';
import { Interrupt } from '../interrupt.js';
import { parse } from '../options.js';
import { checkOutputPath } from '../paths.js';

/** Flags of `hookmd view`. */
export interface ViewCommandOptions {
  port: number;
  host: string;
  open?: boolean;
  export?: string;
}

/** Opens `url` in the default browser; a machine without one gets a note, not an error. */
function openBrowser(url: string): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => process.stderr.write(`hookmd view: could not open a browser (${command}); open ${url} yourself\n`));
  child.unref();
}

/** Runs `hookmd view`; resolves to the exit code once the server is stopped (Ctrl-C) or the report written. */
export async function view(files: readonly string[], options: ViewCommandOptions): Promise<number> {
  for (const file of files) if (!existsSync(file)) throw configError([`view: ${file} does not exist`]);
  if (options.export !== undefined) {
    checkOutputPath(options.export, '--export');
    const bytes = await exportReport(files, options.export);
    process.stderr.write(`hookmd view: wrote ${options.export} (${(bytes / 1024).toFixed(0)} KiB, opens offline)\n`);
    return 0;
  }
  const data = await loadViewData(files);
  const interrupt = new Interrupt();
  try {
    const server = await ViewServer.start(() => data, { host: options.host, port: options.port, files });
    process.stdout.write(`${server.url}\n`);
    process.stderr.write('hookmd view: serving the files above; Ctrl-C to stop\n');
    if (options.open === true) openBrowser(server.url);
    await new Promise((resolve) => interrupt.signal.addEventListener('abort', resolve, { once: true }));
    await server.close();
    return 0;
  } finally {
    interrupt.dispose();
  }
}

/** Adds `view` to the program; the exit code goes to `done`. */
export function registerView(program: Command, done: (code: number) => void): void {
  program
    .command('view')
    .description('look at extxyz files, Zarr stores, logs, NEB bands and phonon files in the browser (a local page, or --export one HTML file)')
    .argument('<files...>', 'extxyz files (NEB bands of hookmd neb --out too), ZarrSink stores, LoggingHook / TrainingLoggingHook logs (csv or jsonl), MSD/VACF/RDF files of hookmd run, phonon files of hookmd phonons --out')
    .option('--port <n>', 'port (0: a free one)', parse.nonNegativeInteger, 0)
    .option('--host <address>', 'interface to listen on (other than 127.0.0.1 makes the page visible to other machines)', '127.0.0.1')
    .option('--open', 'open the page in the default browser')
    .option('--export <file>', 'write one self-contained HTML report instead of serving')
    .action(async (files: string[], options: ViewCommandOptions) => done(await view(files, options)));
}

/**
 * The ViewHook of `--view [port]`, started so that its address is printed before the run, or undefined
 * without the flag.
 */
export async function viewHook(flag: boolean | number | undefined, frequency: number): Promise<ViewHook | undefined> {
  if (flag === undefined || flag === false) return undefined;
  const hook = new ViewHook({ port: flag === true ? 0 : flag, frequency });
  process.stderr.write(`hookmd: live view at ${await hook.start()}\n`);
  return hook;
}
