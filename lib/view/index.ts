// hookmd view: the local web page of `hookmd view` and ViewHook. Named exports only.
export { ViewHook } from './view-hook.js';
export type { ViewHookOptions } from './view-hook.js';
export { ViewServer } from './server.js';
export type { ViewServerOptions } from './server.js';
export { loadViewData, viewFileKind } from './load.js';
export type { ViewFileKind } from './load.js';
export { exportReport } from './export.js';
export type { ViewColumns, ViewData, ViewFile, ViewFrame, ViewSystem } from './view-model.js';
