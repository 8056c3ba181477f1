export { JsModel } from './js-model.js';
export type { JsModelFunction, JsModelOptions, JsModelResult, NumericArray } from './js-model.js';
export { LennardJones } from './lennard-jones.js';
export type { LennardJonesOptions, LennardJonesPairParameters } from './lennard-jones.js';
export type { ComputeOptions, Model, ModelDescription } from './model.js';
export { Morse } from './morse.js';
export type { MorseOptions, MorsePairParameters } from './morse.js';
export type { NativeNeighborStats, NativePotential } from '../native/models-binding.js';
