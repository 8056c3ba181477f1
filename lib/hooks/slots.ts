// hookmd hook kernel: the table of per-stage slots (record.ts). Each stage owns a pre-sorted array of its enabled hook records
// and a cache of the next step at which any of them can fire, so that a dispatch at which nothing is
// due costs one lookup and two comparisons (Rule 12).

import { HookmdTypeError } from '../errors.js';
import { stageMethodName } from './method-name.js';
import { StageSlot } from './record.js';
import { stageEntries, type StageSet, type StageValue } from './stages.js';
import type { MethodHint } from './types.js';
import { showText } from '../describe-value.js';

// Numeric enums with small non-negative values index an array directly (an elements load, faster than
// a Map lookup); other stage sets use the Map. DynamicsStage's values (1000–1008) are below the limit: its
// registries hold a 1009-entry array, so that its dispatch costs what a 0-based enum's does.
const DENSE_LIMIT = 1024;

/** The stages of one registry: names, values and slots. */
export class StageTable {
  readonly slots: readonly StageSlot[];
  readonly byValue: ReadonlyMap<StageValue, StageSlot>;
  /** Slots indexed by stage value, when every value is a small non-negative integer; else null. */
  readonly dense: ReadonlyArray<StageSlot | undefined> | null;
  readonly #methods = new Map<StageSlot, string[]>();
  /** Other libraries' method names that name no stage here, with what to use instead. */
  readonly hints: ReadonlyMap<string, MethodHint>;

  /**
   * `aliases` maps extra method names to stage values (`{ onEpochEnd: TrainingStage.AFTER_EPOCH }`);
   * `hints` names methods of other libraries that have no stage here.
   */
  constructor(stages: StageSet, aliases: Readonly<Record<string, StageValue>> = {}, hints: Readonly<Record<string, MethodHint>> = {}) {
    this.hints = new Map(Object.entries(hints));
    const byValue = new Map<StageValue, StageSlot>();
    const entries = stageEntries(stages);
    for (const [name, value] of entries) {
      if (!byValue.has(value)) byValue.set(value, new StageSlot(value, name));
    }
    this.byValue = byValue;
    this.slots = [...byValue.values()];
    this.dense = denseIndex(this.slots);
    // Every name of a stage gives a method name: enum members that share a value are aliases of one stage.
    const add = (slot: StageSlot, method: string): void => {
      const list = this.#methods.get(slot) ?? [];
      if (!list.includes(method)) list.push(method);
      this.#methods.set(slot, list);
    };
    for (const [name, value] of entries) add(byValue.get(value) as StageSlot, stageMethodName(name));
    for (const [method, value] of Object.entries(aliases)) {
      const slot = byValue.get(value);
      if (slot === undefined) {
        throw new HookmdTypeError('INVALID_STAGE_SET', `HookRegistry: methodAliases.${method} names ${showText(value)}, which is not a stage`, {
          field: `methodAliases.${method}`,
          value,
        });
      }
      add(slot, method);
    }
  }

  /** The method names of a slot's stage, the generic one first. */
  methodNames(slot: StageSlot): readonly string[] {
    return this.#methods.get(slot) ?? [];
  }

  /** Every method name that names a stage here, in stage order. */
  allMethodNames(): string[] {
    return this.slots.flatMap((slot) => this.methodNames(slot));
  }

  /** The slot of a stage value, or undefined for a value outside the set. */
  slot(stage: unknown): StageSlot | undefined {
    return this.byValue.get(stage as StageValue);
  }

  /** The stage's name, for messages and lists. */
  name(stage: unknown): string {
    return this.byValue.get(stage as StageValue)?.name ?? String(stage);
  }

  /** The names of all stages, for messages. */
  names(): string {
    return this.slots.map((s) => s.name).join(', ');
  }
}

function denseIndex(slots: readonly StageSlot[]): Array<StageSlot | undefined> | null {
  let max = -1;
  for (const s of slots) {
    const v = s.value;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= DENSE_LIMIT) return null;
    max = Math.max(max, v);
  }
  // Filled by push, so the array stays packed (no hole checks on the hot path).
  const dense: Array<StageSlot | undefined> = [];
  for (let v = 0; v <= max; v++) dense.push(undefined);
  for (const s of slots) dense[s.value as number] = s;
  return dense;
}
