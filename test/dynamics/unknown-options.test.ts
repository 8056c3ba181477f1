// Issue 19, item 13: a misspelt option (`dtt`) used to be ignored and the engine ran with the default.
// Every engine, model and hook constructor now rejects keys it does not know, through the one helper the
// Trainer uses; a negative convergence threshold, which could never be met, is rejected too.
import { describe, expect, it } from 'vitest';

import {
  ConvergenceHook,
  EnergyDriftMonitorHook,
  FIRE,
  FIRE2,
  FreezeAtomsHook,
  GradientDescent,
  Langevin,
  MaxForceClampHook,
  NaNDetectorHook,
  NoseHooverChain,
  ProgressHook,
  StageTimingHook,
  VelocityVerlet,
  WrapPeriodicHook,
} from '../../lib/dynamics/index.js';
import { LoggingHook } from '../../lib/dynamics/hooks/logging-hook.js';
import { SnapshotHook } from '../../lib/dynamics/hooks/snapshot-hook.js';
import { HostMemorySink } from '../../lib/io/index.js';
import { JsModel, LennardJones } from '../../lib/models/index.js';

const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

describe('unknown option keys are UNKNOWN_OPTION (issue 19, item 13)', () => {
  it.each([
    ['VelocityVerlet', () => new VelocityVerlet({ model, dt: 1, dtt: 1 } as never), 'dtt'],
    ['FIRE', () => new FIRE({ model, dtmax: 1 } as never), 'dtmax'],
    ['FIRE2', () => new FIRE2({ model, fInk: 1 } as never), 'fInk'],
    ['GradientDescent', () => new GradientDescent({ model, stepsize: 1 } as never), 'stepsize'],
    ['Langevin', () => new Langevin({ model, dt: 1, temperature: 1, friction: 1, temprature: 2 } as never), 'temprature'],
    ['NoseHooverChain', () => new NoseHooverChain({ model, dt: 1, temperature: 1, tDamp: 10 } as never), 'tDamp'],
    ['JsModel', () => new JsModel(() => ({ energy: [0] }), { cutof: 3 } as never), 'cutof'],
    ['ConvergenceHook', () => new ConvergenceHook({ criteria: [{ key: 'fmax', threshold: 1 }], frequncy: 2 } as never), 'frequncy'],
    ['ConvergenceHook criterion', () => new ConvergenceHook({ criteria: [{ key: 'fmax', threshold: 1, reduceop: 'max' }] } as never), 'criteria[0].reduceop'],
    ['EnergyDriftMonitorHook', () => new EnergyDriftMonitorHook({ maxDrift: 1 } as never), 'maxDrift'],
    ['FreezeAtomsHook', () => new FreezeAtomsHook({ indices: [0], frequency: 1 } as never), 'frequency'],
    ['LoggingHook', () => new LoggingHook({ writer: () => undefined, every: 5 } as never), 'every'],
    ['MaxForceClampHook', () => new MaxForceClampHook({ maxForce: 1, max: 2 } as never), 'max'],
    ['NaNDetectorHook', () => new NaNDetectorHook({ freq: 1 } as never), 'freq'],
    ['ProgressHook', () => new ProgressHook({ onprogress: () => undefined } as never), 'onprogress'],
    ['SnapshotHook', () => new SnapshotHook({ sink: new HostMemorySink(), every: 2 } as never), 'every'],
    ['StageTimingHook', () => new StageTimingHook({ frequncy: 1 } as never), 'frequncy'],
    ['WrapPeriodicHook', () => new WrapPeriodicHook({ freq: 1 } as never), 'freq'],
  ])('%s', (owner, build, field) => {
    expect(build).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION', details: expect.objectContaining({ field }) }));
    expect(build).toThrow(new RegExp(`^${String(owner).split(' ')[0]}: unknown option ${String(field).replace(/[[\]]/g, '\\$&')}( \\(did you mean \\w+\\?\\))?; expected one of`));
  });

  it('FusedStage rejects unknown options of its own', async () => {
    const { FusedStage } = await import('../../lib/dynamics/index.js');
    expect(() => new FusedStage({ stages: [new FIRE({ model })], budget: [10] } as never)).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
  });

  it('known options with undefined values still pass (configs spread optional keys)', () => {
    expect(() => new Langevin({ model, dt: 1, temperature: 1, friction: 1, seed: undefined, convergence: undefined })).not.toThrow();
  });
});

describe('a negative convergence threshold is rejected (issue 19, item 13)', () => {
  it.each([
    ['fromFmax', () => ConvergenceHook.fromFmax(-1e-3)],
    ['fromForces', () => ConvergenceHook.fromForces(-1)],
    ['temperature', () => new ConvergenceHook({ criteria: [{ key: 'temperature', threshold: -5 }] })],
    ['energyChange', () => new ConvergenceHook({ criteria: [{ key: 'energyChange', threshold: -1e-9 }] })],
  ])('%s', (_, build) => {
    expect(build).toThrow(expect.objectContaining({ code: 'INVALID_CRITERION', details: expect.objectContaining({ field: 'criteria[0].threshold' }) }));
  });

  it('an energy may be negative, and a customOp decides for itself', () => {
    expect(() => new ConvergenceHook({ criteria: [{ key: 'energy', threshold: -3 }] })).not.toThrow();
    expect(() => new ConvergenceHook({ criteria: [{ key: 'fmax', threshold: -1, customOp: (v, t) => Array.from(v, (x) => x > t) }] })).not.toThrow();
  });
});
