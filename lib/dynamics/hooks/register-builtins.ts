// Puts the built-in dynamics hooks in the hook-type table (lib/hooks/config.ts), so config files and
// `registry.fromConfig()` can name them. LoggingHook and the snapshot hooks register themselves in their
// own modules; the hooks here are plain option objects in, hook out.
import { registerHookType } from '../../hooks/index.js';
import { ConvergenceHook, type ConvergenceHookOptions } from './convergence-hook.js';
import { EnergyDriftMonitorHook, type EnergyDriftOptions } from './energy-drift-monitor.js';
import { FreezeAtomsHook } from './freeze-atoms.js';
import { MaxForceClampHook } from './max-force-clamp.js';
import { NaNDetectorHook } from './nan-detector.js';
import { ProgressHook } from './progress.js';
import { StageTimingHook } from './stage-timing.js';
import { WrapPeriodicHook } from './wrap-periodic.js';

type Args = Readonly<Record<string, unknown>>;

registerHookType('ConvergenceHook', (args: Args) => new ConvergenceHook(args as unknown as ConvergenceHookOptions));
registerHookType('EnergyDriftMonitorHook', (args: Args) => new EnergyDriftMonitorHook(args as EnergyDriftOptions));
registerHookType('FreezeAtomsHook', (args: Args) => new FreezeAtomsHook(args as { indices?: readonly number[] }));
registerHookType('MaxForceClampHook', (args: Args) => new MaxForceClampHook(args as unknown as { maxForce: number; frequency?: number }));
registerHookType('NaNDetectorHook', (args: Args) => new NaNDetectorHook(args as { frequency?: number }));
// From a config there is no callback to pass, so ProgressHook prints its line on stderr.
registerHookType('ProgressHook', (args: Args) => new ProgressHook(args as { frequency?: number }));
registerHookType('StageTimingHook', (args: Args) => new StageTimingHook(args as { frequency?: number }));
registerHookType('WrapPeriodicHook', (args: Args) => new WrapPeriodicHook(args as { frequency?: number }));
