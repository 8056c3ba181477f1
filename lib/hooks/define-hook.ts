// hookmd hook kernel: defineHook, for hooks that are plain functions plus a schedule.

import type { StepContext } from './context.js';
import type { Hook } from './hook.js';
import type { Trigger } from './triggers/trigger.js';
import { checkHook } from './validate.js';

/**
 * What {@link defineHook} takes: a hook without the `stage`/`frequency`/`trigger` triple, plus
 * `stage` (optional when `runsOnStage` is given) and exactly one of `frequency` or `trigger`.
 *
 * @example
 * const spec: HookSpec<Stage, StepContext> = { runsOnStage: () => true, trigger: every(10), call: () => {} };
 */
export type HookSpec<S, C extends StepContext> = Omit<Hook<S, C>, 'stage' | 'frequency' | 'trigger'> & {
  readonly stage?: S | null;
} & ({ readonly frequency: number; readonly trigger?: undefined } | { readonly trigger: Trigger; readonly frequency?: undefined });

/**
 * Makes a hook from a function and a schedule, validated now (so errors point at the definition).
 * The context type is taken from the annotation of `call`'s parameter; without one it is the minimal
 * {@link StepContext}, which fits every registry.
 *
 * @example
 * const every10 = defineHook({ stage: Stage.SAVE, frequency: 10, call: (ctx) => console.log(ctx.stepCount) });
 * const late = defineHook({
 *   stage: Stage.SAVE, trigger: and(after(1000), every(100)), name: 'late',
 *   call: (ctx: HookContext<Stage>) => ctx.requestStop('late enough'),
 * });
 */
export function defineHook<S, C extends StepContext = StepContext>(spec: HookSpec<S, C>): Hook<S, C> {
  const hook = { ...spec, stage: spec.stage ?? null, frequency: spec.frequency ?? 1 } as Hook<S, C>;
  checkHook(hook, 'defineHook');
  return hook;
}
