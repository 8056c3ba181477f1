// Issue 27, item 7: values are captured when they are checked. An engine validated `dt: [1]` and then
// read the caller's array at run time, so `dt[0] = -1` after construction ran the system backwards; an
// exitStatus beyond int32 wrapped in native code; a custom trigger whose next() answered NaN or a string
// made its hook silently never fire. Each is now a copy or an INVALID_PARAMETER error.
import { describe, expect, it } from 'vitest';

import { Batch, CellFilter, ConvergenceHook, DynamicsStage, FIRE, FreezeAtomsHook, FusedStage, LennardJones, VelocityVerlet, bulk, or, every, rattle, repeat } from '../../lib/index.js';
import type { Trigger } from '../../lib/index.js';

const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });
const crystal = (): Batch => Batch.fromSystems([rattle(repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [2, 2, 2]), 0.1, 3)]);

describe('array and object options are copied at construction (issue 27, item 7)', () => {
  it('dt: [1] changed to [-1] after construction changes nothing', () => {
    const dt = [1];
    const changed = new VelocityVerlet({ model, dt });
    dt[0] = -1;
    const reference = new VelocityVerlet({ model, dt: 1 });
    const [a, b] = [crystal(), crystal()];
    changed.runSync(a, { steps: 20 });
    reference.runSync(b, { steps: 20 });
    expect(Array.from(a.positions)).toEqual(Array.from(b.positions));
    expect(changed.timeStep).toEqual([1]);
  });

  it('a typed-array dt is copied too, and the engine reports the value it checked', () => {
    const dt = Float64Array.of(2);
    const md = new VelocityVerlet({ model, dt });
    dt[0] = Number.NaN;
    expect(md.timeStep).toEqual([2]);
    expect(() => ((md.timeStep as number[])[0] = 5)).toThrow(TypeError);
  });

  it("FreezeAtomsHook's indices are those given at construction", () => {
    const indices = [0, 1];
    const freeze = new FreezeAtomsHook({ indices });
    indices.push(2, 3, 4, 5);
    const batch = crystal();
    const before = Array.from(batch.positions);
    new FIRE({ model, hooks: [freeze] }).runSync(batch, { steps: 10 });
    const after = Array.from(batch.positions);
    expect(after.slice(0, 6)).toEqual(before.slice(0, 6));
    expect(after.slice(6, 18)).not.toEqual(before.slice(6, 18));
  });

  it("a FusedStage keeps its stages when the caller's array changes", () => {
    const stages = [new FIRE({ model, convergence: ConvergenceHook.fromFmax(1) }), new VelocityVerlet({ model, dt: 1 })];
    const fused = new FusedStage({ stages });
    stages.pop();
    expect(fused.stages).toHaveLength(2);
  });

  it("a CellFilter's per-system pressure is the one it checked", () => {
    const pressure = [0.001];
    const filter = new CellFilter({ scalarPressure: pressure });
    pressure[0] = Number.NaN;
    expect(filter.scalarPressure).toEqual([0.001]);
  });
});

describe('statuses must fit the native int32 words (issue 27, item 7)', () => {
  it.each([2 ** 31, -(2 ** 31) - 1, 2 ** 53])('exitStatus %d is INVALID_PARAMETER', (exitStatus) => {
    expect(() => new FIRE({ model, exitStatus })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER', details: expect.objectContaining({ field: 'exitStatus' }) }));
  });

  it('the int32 extremes are accepted', () => {
    expect(new FIRE({ model, exitStatus: 2 ** 31 - 1 }).exitStatus).toBe(2 ** 31 - 1);
    expect(() => new ConvergenceHook({ criteria: [{ key: 'fmax', threshold: 1 }], sourceStatus: 2 ** 31 })).toThrow(expect.objectContaining({ code: 'INVALID_STATUS' }));
  });
});

describe("a custom trigger's next() must answer a step (issue 27, item 7)", () => {
  const custom = (next: unknown): Trigger => ({ fires: (step) => step % 5 === 0, next: () => next as number, describe: () => 'custom' });

  it.each([[Number.NaN], ['10'], [2.5], [-1]])('next() returning %j is INVALID_PARAMETER when the run asks it', async (answer) => {
    const engine = new FIRE({ model });
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, trigger: custom(answer), call: () => undefined });
    await expect(engine.run(crystal(), { steps: 10 })).rejects.toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'trigger.next' } });
  });

  it('inside a composite too', async () => {
    const engine = new FIRE({ model });
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, trigger: or(every(1000), custom(Number.NaN)), call: () => undefined });
    await expect(engine.run(crystal(), { steps: 10 })).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
  });

  it('a well-behaved custom trigger still fires where it says', async () => {
    const steps: number[] = [];
    const engine = new FIRE({ model });
    const fives: Trigger = { fires: (s) => s % 5 === 0, next: (s) => Math.ceil(s / 5) * 5, describe: () => 'fives' };
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, trigger: fives, call: (ctx) => void steps.push(ctx.stepCount) });
    await engine.run(crystal(), { steps: 12 });
    expect(steps).toEqual([0, 5, 10]);
    expect(engine.listHooks()[0].trigger).toBe('fives');
  });
});
