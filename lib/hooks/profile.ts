// hookmd hook kernel: per-hook profiling. Switching it on swaps each record's call functions for timed
// wrappers; switching it off swaps the hook's own functions back. The dispatch loop has no profiling
// branch, so profiling costs nothing while off.

import { isThenable } from './thenable.js';
import type { CallFn, HookRecord } from './record.js';
import type { ProfileEntry } from './types.js';

/** Resets the record's counters and times every later call (until its promise settles, if any). */
export function instrument(rec: HookRecord): void {
  rec.calls = 0;
  rec.ns = 0;
  const record = (t0: number): void => {
    rec.calls++;
    rec.ns += (performance.now() - t0) * 1e6;
  };
  const wrap = (original: CallFn): CallFn =>
    function timed(this: unknown, ctx: unknown, stage: unknown): unknown {
      const t0 = performance.now();
      let ret: unknown;
      try {
        ret = original.call(rec.hook, ctx, stage);
      } catch (e) {
        record(t0);
        throw e;
      }
      if (!isThenable(ret)) {
        record(t0);
        return ret;
      }
      return Promise.resolve(ret).finally(() => record(t0));
    };
  rec.timed = new Map([...rec.methods].map(([slot, fn]) => [slot, wrap(fn)]));
}

/** Restores the record's own call functions. */
export function uninstrument(rec: HookRecord): void {
  rec.timed = null;
}

/** The profile rows of `records`, slowest first. */
export function profileRows(records: readonly HookRecord[]): ProfileEntry[] {
  return records
    .map((rec) => {
      const totalNs = Math.round(rec.ns);
      // From the reported total, so the two columns always agree (total/calls rounded).
      return { name: rec.name, stage: rec.slots.map((s) => s.name).join('|'), calls: rec.calls, totalNs, meanNs: rec.calls === 0 ? 0 : Math.round(totalNs / rec.calls) };
    })
    .sort((a, b) => b.totalNs - a.totalNs);
}
