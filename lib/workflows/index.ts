// Workflows: sets of systems a batch evaluates together (strained copies for elastic constants, displaced
// supercells for phonons, images of paths for NEB).
export { EquationOfState } from './equation-of-state.js';
export type { EosFit, EosName } from './equation-of-state.js';
export { elasticConstants } from './elastic.js';
export type { ElasticOptions, ElasticResult } from './elastic.js';
export { phonons } from './phonons.js';
export type { PhononOptions, PhononResult, PhononUnit } from './phonons.js';
export type { WorkflowProgress, WorkflowProgressCallback } from './workflow-progress.js';
export { NEB, NEBStage } from './neb.js';
export type { NEBContext, NEBOptions, NEBPath, NEBResult } from './neb.js';
