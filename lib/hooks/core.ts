// hookmd hook kernel: a registry's mutable internals, shared by the registry, its handles and the
// dispatch loop. Structural changes (register, remove, enable, disable) are rare: each one rebuilds
// the per-stage arrays, so that dispatch never sorts or filters.

import { HookmdError } from '../errors.js';
import { HookError } from './errors.js';
import { HookHandle } from './handle.js';
import { instrument } from './profile.js';
import type { HookRecord } from './record.js';
import { StageTable } from './slots.js';
import type { StageSet, StageValue } from './stages.js';
import type { HookLogger, MethodHint } from './types.js';

export class RegistryCore {
  readonly table: StageTable;
  /** Every registered record, sorted by (tier, order, registration): user hooks before built-ins. */
  records: HookRecord[] = [];
  /** The name of the hook being called, for `requestStop`'s `by`. */
  running: string | null = null;
  /** The context of the last dispatch that checked its hooks, for `onException` after a non-hook failure. */
  lastContext: unknown = undefined;
  profiling = false;
  seq = 0;

  constructor(
    stages: StageSet,
    readonly logger: HookLogger,
    readonly workflow: unknown,
    methodAliases: Readonly<Record<string, StageValue>> = {},
    methodHints: Readonly<Record<string, MethodHint>> = {},
  ) {
    this.table = new StageTable(stages, methodAliases, methodHints);
  }

  /** Commits validated records: checks state keys, inserts them in order, rebuilds the slots. */
  add(recs: readonly HookRecord[], op: string): void {
    const keys = new Map<string, string>();
    for (const rec of [...this.records, ...recs]) {
      if (rec.stateKey === null) continue;
      const other = keys.get(rec.stateKey);
      if (other !== undefined) {
        throw new HookmdError(
          'DUPLICATE_STATE_KEY',
          `${op}: state key '${rec.stateKey}' of hook '${rec.name}' is already used by hook '${other}'; ` +
            'give one of them another name, config or stateKey',
          { stateKey: rec.stateKey, hookName: rec.name, other },
        );
      }
      keys.set(rec.stateKey, rec.name);
    }
    this.nameUniquely(recs);
    // seq grows with registration, so ties of tier and order keep registration order.
    this.records = [...this.records, ...recs].sort((a, b) => tierRank(a) - tierRank(b) || a.order - b.order || a.seq - b.seq);
    for (const rec of recs) {
      rec.handle = new HookHandle(this, rec);
      if (this.profiling) instrument(rec);
    }
    this.rebuild();
  }

  // Names are unique within a registry: a second 'Logger' is listed as 'Logger#2', a third as 'Logger#3'.
  private nameUniquely(recs: readonly HookRecord[]): void {
    const taken = new Set(this.records.map((r) => r.name));
    for (const rec of recs) {
      let name = rec.baseName;
      for (let n = 2; taken.has(name); n++) name = `${rec.baseName}#${n}`;
      rec.name = name;
      taken.add(name);
    }
  }

  remove(rec: HookRecord): void {
    if (!rec.registered) return;
    rec.registered = false;
    rec.enabled = false;
    this.records = this.records.filter((r) => r !== rec);
    this.rebuild();
  }

  setEnabled(rec: HookRecord, enabled: boolean): void {
    if (!rec.registered || rec.enabled === enabled) return;
    rec.enabled = enabled;
    this.rebuild();
  }

  /** Replaces every slot's array (copy-on-write: a dispatch in flight keeps iterating its own). */
  rebuild(): void {
    for (const slot of this.table.slots) {
      slot.reset(this.records.filter((r) => r.enabled && r.slots.includes(slot)));
    }
  }

  /** Applies the hook's error policy: raise a HookError, or log it (and unregister for 'disable'). */
  fail(rec: HookRecord, cause: unknown, stage: unknown, step: number, ctx: unknown): void {
    const error = new HookError('dispatch', {
      hookName: rec.name,
      stage: stage as string | number,
      stageName: this.table.name(stage),
      step,
      cause,
      context: ctx,
    });
    if (rec.policy === 'raise') throw error;
    if (rec.policy === 'ignore') return;
    const action = rec.policy === 'disable' ? 'hook removed' : 'run goes on';
    this.logger.warn(`${error.message} (errorPolicy '${rec.policy}': ${action})`, cause);
    if (rec.policy === 'disable') this.remove(rec);
  }
}

function tierRank(rec: HookRecord): number {
  return rec.tier === 'builtin' ? 1 : 0;
}
