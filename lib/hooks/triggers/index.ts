// hookmd triggers: barrel.

export { after, at, before } from './steps.js';
export { every } from './every.js';
export { and, not, or } from './logic.js';
export { wallClock } from './wall-clock.js';
export { isTrigger } from './trigger.js';
export type { EveryOptions } from './every.js';
export type { Trigger, TriggerPeriodicity } from './trigger.js';
export type { WallClockOptions } from './wall-clock.js';
