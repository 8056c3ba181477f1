// Workflows: sets of systems a batch evaluates together (strained copies for elastic constants).
export { elasticConstants } from './elastic.js';
export type { ElasticOptions, ElasticResult } from './elastic.js';
