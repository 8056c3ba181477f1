// hookmd hook kernel: public API (named exports only).

export { RunControl } from './control.js';
export { createContext } from './context.js';
export { defineHook } from './define-hook.js';
export { HookError } from './errors.js';
export { HookHandle } from './handle.js';
export { HookRunner, HookSession, runLifecycle } from './lifecycle.js';
export { hookTypes, registerHookType } from './config.js';
export { isMethodHook, markNoopMethods } from './method-hooks.js';
export { stageMethodName } from './method-name.js';
export { isModuleType } from './module-types.js';
export { HookRegistry } from './registry.js';
export { isStageOf, stageName, stageValues } from './stages.js';
export { after, and, at, before, every, isTrigger, not, or, wallClock } from './triggers/index.js';

export type { StopRequest } from './control.js';
export type {
  ContextInit,
  DynamicsContext,
  HookContext,
  MutableContext,
  StepContext,
  TrainContext,
  TrainLosses,
} from './context.js';
export type { HookSpec } from './define-hook.js';
export type { HookErrorInfo } from './errors.js';
export type { AnyHook, AnyMethodHook, ErrorPolicy, Hook, HookTier, MethodHook, MethodHookOptions } from './hook.js';
export type { HookRunnerOptions, HookSource } from './lifecycle.js';
export type { HookConfigEntry, HookFactory, RegisterHookTypeOptions } from './config.js';
export type { StageOf, StageSet, StageValue } from './stages.js';
export type { EveryOptions, Trigger, TriggerPeriodicity, WallClockOptions } from './triggers/index.js';
export type { FromConfigOptions, HookInfo, HookLogger, HookRegistryOptions, LoadStateOptions, MethodHint, ProfileEntry, RegisterOptions, StateDict } from './types.js';
