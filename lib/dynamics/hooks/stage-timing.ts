// StageTimingHook: wall time between consecutive stages of sampled steps.
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';
import { checkKeys } from '../../option-keys.js';
import { registerHookType } from '../../hooks/index.js';

/**
 * Measures, at every `frequency`-th step, the wall time from one stage to the next (so the BEFORE_COMPUTE →
 * AFTER_COMPUTE row is the force computation). Sampled steps run stage by stage from JS, so sample sparsely.
 *
 * @example
 * const timing = new StageTimingHook({ frequency: 100 });
 * await md.run(batch, { steps: 1000 });
 * console.table(timing.report());
 */
export class StageTimingHook {
  readonly stage: DynamicsStage | null = null;
  readonly frequency: number;
  readonly name = 'StageTimingHook';
  readonly #totals = new Map<string, { ns: number; count: number }>();
  #last: { stage: DynamicsStage; step: number; at: bigint } | undefined;

  constructor(options: { frequency?: number } = {}) {
    checkKeys('StageTimingHook', options, ['frequency']);
    this.frequency = checkFrequency('StageTimingHook', options.frequency ?? 100);
  }

  runsOnStage(): boolean {
    return true;
  }

  call(ctx: { stepCount: number }, stage: DynamicsStage): void {
    const now = process.hrtime.bigint();
    const last = this.#last;
    if (last !== undefined && last.step === ctx.stepCount) {
      const key = `${DynamicsStage[last.stage]} → ${DynamicsStage[stage]}`;
      const entry = this.#totals.get(key) ?? { ns: 0, count: 0 };
      entry.ns += Number(now - last.at);
      entry.count += 1;
      this.#totals.set(key, entry);
    }
    this.#last = { stage, step: ctx.stepCount, at: process.hrtime.bigint() };
  }

  /** Mean microseconds per interval, in stage order. */
  report(): Array<{ interval: string; meanMicroseconds: number; samples: number }> {
    return [...this.#totals].map(([interval, { ns, count }]) => ({ interval, meanMicroseconds: ns / count / 1000, samples: count }));
  }
}

registerHookType('StageTimingHook', (args) => new StageTimingHook(args as { frequency?: number }));
