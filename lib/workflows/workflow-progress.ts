// What elasticConstants and phonons report as they go, for a progress bar (hookmd elastic, hookmd phonons):
// their work is one or two batched relaxations and one batched force call, so progress is the stage they are
// in and how far it has got.

/** One report: the stage, and its `done` units of at most `total` ('steps' of a relaxation, or 'systems'). */
export interface WorkflowProgress {
  /** 'cell' (the cell relaxation), 'ions' (the strained cells' relaxation), 'stress' or 'forces' (the force call). */
  readonly stage: 'cell' | 'ions' | 'stress' | 'forces';
  readonly done: number;
  readonly total: number;
  readonly unit: 'steps' | 'systems';
}

/** The callback both workflows take as `onProgress`. */
export type WorkflowProgressCallback = (progress: WorkflowProgress) => void;
