// Type tests for the generic hook map (STYLE §4): hooks are checked against a registry's stage set
// and context type at compile time. `tsc -p tsconfig.json --noEmit` fails if any @ts-expect-error
// below stops being an error; vitest runs the runtime half.

import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  defineHook,
  HookRegistry,
  type DynamicsContext,
  type Hook,
  type HookContext,
  type HookHandle,
  type StageOf,
  type StepContext,
  type TrainContext,
} from '../../lib/hooks/index.js';

enum Stage {
  LOAD,
  TRANSFORM,
  SAVE,
}
enum Other {
  A = 'a',
  B = 'b',
}
const Phase = Object.freeze({ WARMUP: 'warmup', MAIN: 'main' });

interface Batch {
  energy: Float64Array;
}
type DynCtx = DynamicsContext<Batch, string, Stage>;
type TrainCtx = TrainContext<Float64Array, string, Stage>;

describe('hook map types', () => {
  it('StageOf extracts the stage values of enums and frozen objects', () => {
    expectTypeOf<StageOf<typeof Stage>>().toEqualTypeOf<Stage>();
    expectTypeOf<StageOf<typeof Phase>>().toEqualTypeOf<'warmup' | 'main'>();
  });

  it('a registry types call(ctx, stage) with its own context and stage', () => {
    const dyn = new HookRegistry<typeof Stage, DynCtx>(Stage);
    dyn.register({
      stage: Stage.SAVE,
      frequency: 1,
      call: (ctx, stage) => {
        expectTypeOf(ctx).toEqualTypeOf<DynCtx>();
        expectTypeOf(ctx.batch.energy).toEqualTypeOf<Float64Array>();
        expectTypeOf(stage).toEqualTypeOf<Stage.SAVE>();
      },
    });
    const plain = new HookRegistry(Stage);
    plain.register({
      stage: Stage.LOAD,
      frequency: 1,
      call: (ctx) => {
        expectTypeOf(ctx).toEqualTypeOf<StepContext>();
      },
    });
  });

  it('a hook written for one context is rejected by a registry of another', () => {
    const dyn = new HookRegistry<typeof Stage, DynCtx>(Stage);
    const train = new HookRegistry<typeof Stage, TrainCtx>(Stage);
    const dynHook = defineHook({ stage: Stage.SAVE, frequency: 1, call: (ctx: DynCtx) => void ctx.batch });
    const trainHook = defineHook({ stage: Stage.SAVE, frequency: 1, call: (ctx: TrainCtx) => void ctx.loss });
    dyn.register(dynHook);
    train.register(trainHook);
    // @ts-expect-error a dynamics hook needs ctx.batch, which a training context lacks
    train.register(dynHook);
    // @ts-expect-error and the other way round
    dyn.register(trainHook);
  });

  it('a hook that needs only the base context fits every registry', () => {
    const generic = defineHook({ stage: Stage.SAVE, frequency: 5, call: (ctx: HookContext<Stage>) => ctx.requestStop('x') });
    new HookRegistry<typeof Stage, DynCtx>(Stage).register(generic);
    new HookRegistry<typeof Stage, TrainCtx>(Stage).register(generic);
    // @ts-expect-error the default registry promises only { stepCount }, not requestStop
    new HookRegistry(Stage).register(generic);
  });

  it('a hook for another stage set is rejected', () => {
    const reg = new HookRegistry(Stage);
    // Rejected at compile time, and (FOREIGN_STAGE) at run time for JavaScript callers.
    expect(() =>
      // @ts-expect-error Other.A is not a Stage
      reg.register({ stage: Other.A, frequency: 1, call: () => {} }),
    ).toThrow(expect.objectContaining({ code: 'FOREIGN_STAGE' }));
    const phases = new HookRegistry(Phase);
    phases.register({ stage: 'main', frequency: 1, call: () => {} });
    expect(() =>
      // @ts-expect-error 'cooldown' is not a phase
      phases.register({ stage: 'cooldown', frequency: 1, call: () => {} }),
    ).toThrow(expect.objectContaining({ code: 'FOREIGN_STAGE' }));
    // @ts-expect-error dispatch checks the stage too
    reg.dispatch(Other.B, { stepCount: 0 });
  });

  it('register returns a handle typed with the hook class', () => {
    class Counter implements Hook<Stage, DynCtx> {
      stage = Stage.SAVE;
      frequency = 2;
      count = 0;
      call(): void {
        this.count++;
      }
    }
    const handle = new HookRegistry<typeof Stage, DynCtx>(Stage).register(new Counter());
    expectTypeOf(handle).toEqualTypeOf<HookHandle<Counter>>();
    expectTypeOf(handle.hook.count).toEqualTypeOf<number>();
  });

  it('method-style hooks compile with stage methods, and not without', () => {
    const reg = new HookRegistry(Stage);
    class Printer {
      lines: string[] = [];
      onSave(ctx: StepContext): void {
        this.lines.push(String(ctx.stepCount));
      }
    }
    const handle = reg.register(new Printer());
    expectTypeOf(handle).toEqualTypeOf<HookHandle<Printer>>();
    reg.register({ frequency: 2, name: 'p', onLoad: () => {} });
    expect(() =>
      // @ts-expect-error an object with neither call nor a stage method is not a hook
      reg.register({ name: 'nothing' }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_HOOK' }));
  });
});
