// The complete custom-pipeline example of docs/hooks.md ("A custom pipeline"), run as a test: a user
// stage enum, a user loop, hooks at two stages, lifecycle, stop request and state. Keep the two in sync.

import { describe, expect, it } from 'vitest';
import {
  createContext,
  defineHook,
  HookRegistry,
  HookRunner,
  RunControl,
  type Hook,
  type HookContext,
  type StopRequest,
} from '../../lib/hooks/index.js';

// ---- from docs/hooks.md -------------------------------------------------------------------------

enum Etl {
  EXTRACT,
  TRANSFORM,
  LOAD,
}
type EtlContext = HookContext<Etl> & { rows: number[] };

class Checkpointer implements Hook<Etl, EtlContext> {
  stage = Etl.LOAD;
  frequency = 5;
  name = 'Checkpointer';
  saved: number[] = [];
  lines: string[] = [];
  open(): void {
    this.lines.push('open');
  }
  call(ctx: EtlContext): void {
    this.saved.push(ctx.stepCount);
  }
  onException(error: unknown): void {
    this.lines.push(`failed: ${(error as Error).message}`);
  }
  close(): void {
    this.lines.push(`close after ${this.saved.length} checkpoints`);
  }
  stateDict(): unknown {
    return { saved: this.saved };
  }
  loadStateDict(state: unknown): void {
    this.saved = [...(state as { saved: number[] }).saved];
  }
}

function makeRegistry(checkpointer: Checkpointer): HookRegistry<typeof Etl, EtlContext> {
  const registry = new HookRegistry<typeof Etl, EtlContext>(Etl);
  registry.register(
    defineHook({
      name: 'Validate',
      stage: Etl.TRANSFORM,
      frequency: 1,
      call: (ctx: EtlContext) => {
        if (ctx.rows.some(Number.isNaN)) ctx.requestStop(`bad row at step ${ctx.stepCount}`);
      },
    }),
  );
  registry.register(checkpointer);
  return registry;
}

async function runPipeline(
  registry: HookRegistry<typeof Etl, EtlContext>,
  batches: number[][],
): Promise<{ steps: number; stopped?: StopRequest }> {
  const control = new RunControl();
  const ctx = createContext({ stage: Etl.EXTRACT, control, registry, workflow: 'etl' }, { rows: [] as number[] });
  return new HookRunner(registry, { context: () => ctx }).run(async () => {
    while (ctx.stepCount < batches.length) {
      ctx.rows = batches[ctx.stepCount];
      for (const stage of [Etl.EXTRACT, Etl.TRANSFORM, Etl.LOAD]) {
        ctx.stage = stage;
        await registry.dispatch(stage, ctx);
      }
      ctx.stepCount++;
      if (control.stopRequested) break;
    }
    return { steps: ctx.stepCount, stopped: control.stopped };
  });
}

// ---- end of the docs example ---------------------------------------------------------------------

describe('the custom pipeline of docs/hooks.md', () => {
  const clean = Array.from({ length: 12 }, (_, i) => [i, i + 1]);

  it('runs every step, checkpoints every 5 steps, opens and closes once', async () => {
    const checkpointer = new Checkpointer();
    const result = await runPipeline(makeRegistry(checkpointer), clean);
    expect(result).toEqual({ steps: 12, stopped: undefined });
    expect(checkpointer.saved).toEqual([0, 5, 10]);
    expect(checkpointer.lines).toEqual(['open', 'close after 3 checkpoints']);
  });

  it('a bad row stops the run after that step, and the checkpointer still sees its LOAD', async () => {
    const checkpointer = new Checkpointer();
    const batches = clean.map((rows, step) => (step === 5 ? [Number.NaN] : rows));
    const result = await runPipeline(makeRegistry(checkpointer), batches);
    expect(result).toEqual({ steps: 6, stopped: { reason: 'bad row at step 5', by: 'Validate' } });
    expect(checkpointer.saved).toEqual([0, 5]);
  });

  it('state survives a restart through stateDict/loadStateDict', async () => {
    const first = new Checkpointer();
    const registry = makeRegistry(first);
    await runPipeline(registry, clean);
    const restored = new Checkpointer();
    makeRegistry(restored).loadStateDict(JSON.parse(JSON.stringify(registry.stateDict())));
    expect(restored.saved).toEqual([0, 5, 10]);
  });

  it('a failing hook reaches onException before close', async () => {
    const checkpointer = new Checkpointer();
    const registry = makeRegistry(checkpointer);
    registry.register({ name: 'Loader', stage: Etl.LOAD, frequency: 1, call: (ctx) => { if (ctx.stepCount === 2) throw new Error('db down'); } });
    await expect(runPipeline(registry, clean)).rejects.toThrow("dispatch: hook 'Loader' failed at stage LOAD, step 2: db down");
    expect(checkpointer.lines).toEqual([
      'open',
      "failed: dispatch: hook 'Loader' failed at stage LOAD, step 2: db down",
      'close after 1 checkpoints',
    ]);
  });
});
