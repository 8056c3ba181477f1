// hookmd hook kernel: a hook validated against a registry's stages, and its record built (record.ts).

import { typeError } from './errors.js';
import { isMethodHook, stageMethods } from './method-hooks.js';
import type { AnyHook } from './hook.js';
import { HookRecord, type CallFn, type StageSlot } from './record.js';
import type { StageTable } from './slots.js';
import { deriveStateKey } from './state.js';
import { checkedTrigger } from './triggers/checked.js';
import { every } from './triggers/every.js';
import { checkHook, hookName } from './validate.js';
import { showText } from '../describe-value.js';

/**
 * Validates `hook` against a registry's stages and builds its record.
 * `fallbackConfig` stands in for `hook.config` in the state key (fromConfig passes the entry's args);
 * `stage`, when given, replaces the hook's own stage (and its runsOnStage), as nvalchemi's
 * `register_hook(hook, stage)` does.
 */
export function makeRecord(
  hook: unknown,
  seq: number,
  table: StageTable,
  op: string,
  fallbackConfig?: unknown,
  stage?: { readonly value: unknown },
): HookRecord {
  checkHook(hook, op, stage !== undefined);
  const methodStyle = typeof hook !== 'function' && isMethodHook(hook);
  // A function hook is its own call; its `call` property is Function.prototype.call.
  const call = (typeof hook === 'function' ? hook : hook.call) as CallFn;
  const slots = (): StageSlot[] => (stage === undefined ? resolveSlots(hook, table, op) : [stageSlot(table, stage.value, op)]);
  const methods = methodStyle ? stageMethods(hook, table, op) : new Map(slots().map((slot) => [slot, call]));
  const name = hookName(hook, seq);
  // A method-style hook may leave out frequency: it then fires at every step of its stages.
  const period = hook.frequency ?? 1;
  const frequency = hook.trigger === undefined ? period : 0;
  const trigger = hook.trigger === undefined ? every(period) : checkedTrigger(hook.trigger);
  const stateKey =
    typeof hook.stateDict === 'function' ? deriveStateKey(name, hook.stateKey, hook.config ?? fallbackConfig) : null;
  return new HookRecord(
    hook, name, seq, hook.order ?? 0, hook.tier ?? 'user', frequency, trigger, [...methods.keys()], methods,
    hook.errorPolicy ?? 'raise', stateKey, methodStyle,
  );
}

// runsOnStage is asked once per stage of the set; a plain hook must name one of the set's stages. A
// runsOnStage that matches none registers a hook that never fires (and is never due), so one hook object
// can serve registries of several stage sets (docs/hooks.md, rule 1).
function resolveSlots(hook: AnyHook, table: StageTable, op: string): StageSlot[] {
  const pick = hook.runsOnStage;
  if (pick !== undefined) return table.slots.filter((slot) => pick.call(hook, slot.value) === true);
  return [stageSlot(table, hook.stage, op)];
}

function stageSlot(table: StageTable, stage: unknown, op: string): StageSlot {
  const slot = table.slot(stage);
  if (slot === undefined) {
    throw typeError('FOREIGN_STAGE', op, 'stage', `must be one of this registry's stages (${table.names()}), got ${showText(stage)}${positionHint(table, stage)}`, stage);
  }
  return slot;
}

// A number that is a stage's position rather than its value (DynamicsStage counts from 1000, so code
// written when AFTER_STEP was 7 gives 7): name the stage it meant.
function positionHint(table: StageTable, stage: unknown): string {
  if (typeof stage !== 'number' || !Number.isInteger(stage) || stage < 0 || stage >= table.slots.length) return '';
  const meant = table.slots[stage];
  return `; stages are their enum members, not positions: for ${meant.name} give the member (its value is ${showText(meant.value)})`;
}
