// hookmd hook kernel: stage sets. Any TS enum (numeric, string or mixed) or a frozen object of stage
// values names the stages of a workflow; the kernel only needs the values and their names.

import { HookmdTypeError } from '../errors.js';
import { showValue } from '../describe-value.js';

/**
 * One stage value: a member of a TS enum or a value of a stage object.
 *
 * @example
 * const v: StageValue = Stage.SAVE; // or 'save' for a string stage set
 */
export type StageValue = string | number;

/**
 * A set of named stages: a TS enum object (`typeof MyStage`) or a frozen object such as
 * `Object.freeze({ LOAD: 'load', SAVE: 'save' })`.
 *
 * @example
 * enum Stage { LOAD, TRANSFORM, SAVE }
 * const set: StageSet = Stage;
 */
export type StageSet = { readonly [name: string]: StageValue };

/**
 * The stage value type of a stage set: `StageOf<typeof Stage>` is `Stage`; over a union of sets (a registry
 * of several, `[StageA, StageB]`), the union of their values.
 *
 * @example
 * const Phase = Object.freeze({ WARMUP: 'warmup', MAIN: 'main' });
 * const p: StageOf<typeof Phase> = 'main';
 */
export type StageOf<E extends StageSet> = E extends StageSet ? E[keyof E] : never;

/**
 * The `[name, value]` pairs of a stage set, in declaration order, without the reverse entries
 * (`Stage[0] === 'LOAD'`) that TypeScript adds to numeric enums.
 *
 * @example
 * enum Stage { LOAD, SAVE }
 * stageEntries(Stage); // [['LOAD', 0], ['SAVE', 1]]
 */
export function stageEntries(stages: StageSet): Array<[string, StageValue]> {
  if (stages === null || typeof stages !== 'object') {
    throw new HookmdTypeError('INVALID_STAGE_SET', 'HookRegistry: stages must be an enum or an object of stage values', {
      field: 'stages',
      value: stages,
    });
  }
  const entries: Array<[string, StageValue]> = [];
  for (const name of Object.keys(stages)) {
    const value = stages[name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new HookmdTypeError(
        'INVALID_STAGE_SET',
        `HookRegistry: stages.${name} must be a string or a number, got ${typeof value}`,
        { field: `stages.${name}`, value },
      );
    }
    if (!isReverseEntry(stages, name, value)) entries.push([name, value]);
  }
  if (entries.length === 0) {
    throw new HookmdTypeError('INVALID_STAGE_SET', 'HookRegistry: stages must hold at least one stage', {
      field: 'stages',
      value: stages,
    });
  }
  return entries;
}

/**
 * One stage set of the stages of `sets`, in order (upstream's tuple of stage enums). Two stages of one value
 * under different names, or one name with two values, would be one slot: INVALID_STAGE_SET.
 *
 * @example
 * enum Load { READ = 'read' } enum Save { WRITE = 'write' }
 * mergeStageSets([Load, Save]); // { READ: 'read', WRITE: 'write' }
 */
export function mergeStageSets(sets: readonly StageSet[]): StageSet {
  if (sets.length === 0) throw new HookmdTypeError('INVALID_STAGE_SET', 'HookRegistry: stages must hold at least one stage set', { field: 'stages', value: sets });
  const merged: Record<string, StageValue> = {};
  // Within one set, names that share a value are aliases of one stage (TrainingStage's ON_VALIDATION_START).
  const owners = new Map<StageValue, { name: string; set: number }>();
  sets.forEach((set, k) => {
    for (const [name, value] of stageEntries(set)) {
      const other = owners.get(value);
      if ((other !== undefined && other.set !== k && other.name !== name) || (Object.hasOwn(merged, name) && merged[name] !== value)) {
        throw new HookmdTypeError('INVALID_STAGE_SET', `HookRegistry: stages[${k}].${name} (${showValue(value)}) collides with ${other?.name ?? name} of an earlier stage set; give the sets distinct values (string values, or numbers apart, as DynamicsStage's start at 1000)`, {
          field: `stages[${k}].${name}`,
          value,
        });
      }
      if (other === undefined) owners.set(value, { name, set: k });
      merged[name] = value;
    }
  });
  return Object.freeze(merged);
}

/**
 * The values of a stage set, in declaration order.
 *
 * @example
 * enum Stage { LOAD, SAVE }
 * stageValues(Stage); // [0, 1]
 */
export function stageValues<E extends StageSet>(stages: E): Array<StageOf<E>> {
  return stageEntries(stages).map(([, value]) => value as StageOf<E>);
}

/**
 * Whether `value` is a stage of the stage set `stages`: how a hook that serves several workflows tells
 * their stages apart, as nvalchemi's guide dispatches on the stage enum. Stage sets keep apart only when
 * their values differ: hookmd's DynamicsStage (1000–1008) and TrainingStage (names) never equal a custom
 * enum's small numbers (docs/hooks.md, "Stages of several enums").
 *
 * @example
 * enum PipelineStage { BEFORE_PROCESS, AFTER_PROCESS }
 * const logger = {
 *   stage: null, frequency: 10,
 *   runsOnStage: (s) => s === DynamicsStage.AFTER_STEP || s === PipelineStage.AFTER_PROCESS,
 *   call: (ctx, stage) => console.log(isStageOf(DynamicsStage, stage) ? 'dynamics' : 'pipeline', ctx.stepCount),
 * };
 */
export function isStageOf(stages: StageSet, value: unknown): value is StageValue {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  for (const [, v] of stageEntries(stages)) if (v === value) return true;
  return false;
}

/**
 * The name of a stage value, for messages; numeric enums map back through their reverse entries.
 * Returns `String(value)` for a value that is not in the set.
 *
 * @example
 * enum Stage { LOAD, SAVE }
 * stageName(Stage, Stage.SAVE); // 'SAVE'
 */
export function stageName(stages: StageSet, value: StageValue): string {
  for (const [name, v] of stageEntries(stages)) if (v === value) return name;
  return String(value);
}

// A numeric enum `enum E { A = 3 }` compiles to { A: 3, '3': 'A' }; the second entry is the reverse.
function isReverseEntry(stages: StageSet, key: string, value: StageValue): boolean {
  if (typeof value !== 'string') return false;
  const forward = stages[value];
  return typeof forward === 'number' && String(forward) === key;
}
