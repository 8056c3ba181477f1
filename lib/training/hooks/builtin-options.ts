// The options every built-in training hook takes besides its own: `order` (within the built-in tier, which
// runs after user hooks at every stage) and `errorPolicy` (docs/hooks.md, "Tiers" and "Errors").
import type { ErrorPolicy } from '../../hooks/index.js';
import { HookmdTypeError } from '../../errors.js';
import { numberOption } from '../options.js';
import { showValue } from '../../describe-value.js';

/** @internal The option names of {@link builtinOptions}, for checkKeys. */
export const BUILTIN_OPTION_KEYS: readonly string[] = ['order', 'errorPolicy'];

/**
 * Options every built-in training hook accepts.
 *
 * @example
 * new EarlyStoppingHook({ patience: 5, order: -1, errorPolicy: 'warn' } satisfies EarlyStoppingOptions);
 */
export interface BuiltinHookOptions {
  /** Lower runs first within the built-in tier (default 0); user hooks always run before built-ins. */
  order?: number;
  /** What a failure of the hook does (default 'raise'). */
  errorPolicy?: ErrorPolicy;
}

/** @internal Checks `order` and `errorPolicy` of a built-in's options. */
export function builtinOptions(owner: string, given: Readonly<Record<string, unknown>>): { order: number; errorPolicy: ErrorPolicy } {
  const order = numberOption(owner, 'order', given.order ?? 0, -Infinity);
  const errorPolicy = given.errorPolicy ?? 'raise';
  if (errorPolicy !== 'raise' && errorPolicy !== 'warn' && errorPolicy !== 'ignore' && errorPolicy !== 'disable') {
    throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: errorPolicy must be 'raise', 'warn', 'ignore' or 'disable', got ${showValue(errorPolicy)}`, {
      field: 'errorPolicy',
      value: errorPolicy,
    });
  }
  return { order, errorPolicy };
}
