#!/usr/bin/env node
// The `hookmd` command; the implementation is compiled into dist/cli (npm run build).

// `hookmd schema | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

let cli;
try {
  cli = await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('main.js')) throw error;
  process.stderr.write('hookmd: dist/ is not built; run `npm run build` in the hookmd checkout\n');
  process.exit(1);
}
process.exitCode = await cli.main(process.argv);
