// hookmd I/O: extxyz, sinks (memory, extxyz, zarr). Named exports only.
export { readExtxyz, streamExtxyz } from './extxyz-read.js';
export type { ReadExtxyzOptions } from './extxyz-frame.js';
export { DEFAULT_MAX_FRAME_ATOMS, DEFAULT_MAX_LINE_BYTES } from './extxyz-limits.js';
export type { ExtxyzLimits } from './extxyz-limits.js';
export { formatExtxyz, writeExtxyz } from './extxyz-write.js';
export type { WriteExtxyzOptions } from './extxyz-write.js';
export { ASE_FS } from './extxyz-mapping.js';
export type { Sink, SinkOptions } from './sink.js';
export { HostMemorySink } from './host-memory-sink.js';
export { ExtxyzSink } from './extxyz-sink.js';
export type { ExtxyzSinkOptions } from './extxyz-sink.js';
export { ZarrSink } from './zarr-sink.js';
export type { ZarrSinkOptions } from './zarr-sink.js';
export { readZarr } from './zarr-read.js';
export { openSink } from './open-sink.js';
