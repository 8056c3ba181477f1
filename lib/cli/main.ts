// The `hookmd` command line: relax, md, run, merge, queue, fit, info, demo, view, elastic, phonons, schema. Exit codes are in exit-code.ts.
import { Command } from 'commander';

import { CONFIG_SCHEMA } from './config-schema.js';
import { registerDemo } from './commands/demo.js';
import { EXIT_OK, exitCodeFor, reportError } from './exit-code.js';
import { registerFit } from './commands/fit.js';
import { packageVersion, registerInfo } from './commands/info.js';
import { registerMd } from './commands/md.js';
import { registerMerge } from './commands/merge.js';
import { registerNeb } from './commands/neb.js';
import { registerQueue } from './commands/queue/index.js';
import { registerRelax } from './commands/relax.js';
import { registerRun } from './commands/run.js';
import { registerView } from './commands/view.js';
import { registerWorkflows } from './commands/workflows.js';

function program(done: (code: number) => void, argv: readonly string[]): Command {
  const cli = new Command('hookmd')
    .description('Batched atomistic simulation with hookable stages')
    .version(packageVersion())
    // Commander throws instead of exiting, so main() decides the exit code; subcommands inherit this.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  registerRelax(cli, done);
  registerMd(cli, done);
  registerRun(cli, done);
  registerMerge(cli, done);
  registerQueue(cli, done, argv);
  registerFit(cli, done);
  registerInfo(cli);
  registerDemo(cli);
  registerView(cli, done);
  registerWorkflows(cli);
  registerNeb(cli);
  cli
    .command('schema')
    .description('print the JSON Schema of run configs (docs/config.schema.json)')
    .action(() => {
      process.stdout.write(`${JSON.stringify(CONFIG_SCHEMA, null, 2)}\n`);
    });
  return cli;
}

/**
 * Runs the command line; resolves to the exit code: 0 OK, 1 runtime failure, 2 bad usage or input,
 * 130 after Ctrl-C (143 after SIGTERM) once the outputs are flushed.
 *
 * @example
 * process.exitCode = await main(process.argv);
 */
export async function main(argv: readonly string[]): Promise<number> {
  let code = EXIT_OK;
  try {
    await program((c) => {
      code = c;
    }, argv).parseAsync(argv as string[]);
    return code;
  } catch (error) {
    reportError(error);
    return exitCodeFor(error);
  }
}
