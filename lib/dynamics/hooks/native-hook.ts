// Built-in hooks that the native stepping loop runs itself. Each stays a normal Hook object (its `call`
// does the same work from JS, for custom workflows); engines recognise them by `toNativeHook` and install
// them natively instead of dispatching them.
import type { Batch } from '../../data/index.js';
import { nativeStageIndex, type DynamicsStage } from '../stage.js';

/** What the native loop needs to run a built-in hook. */
export interface NativeHookSpec {
  type: string;
  stages: readonly DynamicsStage[];
  frequency: number;
  phase: number;
  value?: number;
  mask?: Uint8Array;
  values?: Float64Array;
}

/** A hook that can run natively for `batch`; returns undefined when it must run in JS (e.g. a custom trigger). */
export interface NativeCapable {
  /** How the engine's hook list names it (its class name without one). */
  readonly name?: string;
  /** The steps between its native runs, as the hook list shows it. */
  readonly frequency?: number;
  /** @internal The native form of this hook, for engines. */
  toNativeHook(batch: Batch): NativeHookSpec | undefined;
}

/** Whether `hook` is a native-capable built-in. */
export function isNativeCapable(hook: unknown): hook is NativeCapable {
  return typeof hook === 'object' && hook !== null && typeof (hook as Partial<NativeCapable>).toNativeHook === 'function';
}

/** The stage bit mask the native loop reads. */
export function stageMask(stages: readonly DynamicsStage[]): number {
  return stages.reduce((mask, stage) => mask | (1 << nativeStageIndex(stage)), 0);
}
