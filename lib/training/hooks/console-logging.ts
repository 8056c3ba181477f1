// ConsoleLoggingHook: TrainingLoggingHook without a file, for config files that want progress on the
// console without code (`hooks: [{ type: ConsoleLoggingHook }]`): the run metadata at BEFORE_TRAIN, then
// one line per firing.
import { registerHookType } from '../../hooks/index.js';
import { checkKeys } from '../options.js';
import { BUILTIN_OPTION_KEYS } from './builtin-options.js';
import { TrainingLoggingHook, type TrainingLoggingOptions } from './logging.js';

/**
 * Options of `new ConsoleLoggingHook`.
 *
 * @example
 * const options: ConsoleLoggingOptions = { stage: 'AFTER_EPOCH', frequency: 1, columns: { sigma: (ctx) => ctx.parameters.sigma } };
 */
export type ConsoleLoggingOptions = Pick<TrainingLoggingOptions, 'stage' | 'frequency' | 'columns' | 'name' | 'order' | 'errorPolicy'>;

/**
 * Prints the run metadata, then one line per epoch (or per firing at `stage`): epoch, step, lr, loss,
 * its terms, every metric and the custom columns.
 *
 * @example
 * new Trainer({ model, train, epochs: 20, hooks: [new ConsoleLoggingHook()] });
 * // run 1b2c… · commit 4f1c… · config 9a8b7c6d5e4f · hooks: ConsoleLoggingHook
 * // epoch 0 · step 5 · lr 0.01 · loss 0.0123 · energy 0.0023 · forces 0.01 · stress 0 · train_loss 0.0151
 */
export class ConsoleLoggingHook extends TrainingLoggingHook {
  protected static override readonly hookType: string = 'ConsoleLoggingHook';

  constructor(options: ConsoleLoggingOptions = {}) {
    super(checkKeys('ConsoleLoggingHook', options, ['stage', 'frequency', 'columns', 'name', ...BUILTIN_OPTION_KEYS]) as ConsoleLoggingOptions);
  }
}

registerHookType('ConsoleLoggingHook', (args) => new ConsoleLoggingHook(args as ConsoleLoggingOptions));
