#!/usr/bin/env node
// The `hookmd` command; the implementation is compiled into dist/cli (npm run build).

// `hookmd schema | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// The soft limit on open files (ulimit -n), from /proc on Linux; undefined where it cannot be read.
async function openFileLimit() {
  try {
    const { readFileSync } = await import('node:fs');
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) ? soft : undefined;
  } catch {
    return undefined;
  }
}

// Loading the CLI opens its modules in parallel: under a low open-file limit (ulimit -n 96) Node reports the
// EMFILE it meets as a package that cannot be found, naming neither the limit nor the way on. So the limit is
// read first, while a file can still be opened.
const FILES_NEEDED = 256;
const limit = await openFileLimit();
if (limit !== undefined && limit < FILES_NEEDED) {
  process.stderr.write(`hookmd: the open-file limit (ulimit -n) is ${limit}; hookmd needs about ${FILES_NEEDED} to load its modules: raise it (ulimit -n 4096) and run it again\n`);
  process.exit(1);
}

let cli;
try {
  cli = await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('main.js')) throw error;
  process.stderr.write('hookmd: dist/ is not built; run `npm run build` in the hookmd checkout\n');
  process.exit(1);
}
process.exitCode = await cli.main(process.argv);
