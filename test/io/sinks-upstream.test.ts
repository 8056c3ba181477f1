// Issue 28 item 5: sinks as nvalchemi's test/dynamics/test_sinks.py tests its HostMemory (TestHostMemory,
// TestDrainMethod): round trip, len, capacity, masks, drain. Where hookmd differs on purpose (an empty read or
// drain returns [] unless `throwWhenEmpty`; systems instead of a Batch) docs/pipeline.md says why.
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { HostMemorySink } from '../../lib/io/index.js';

const batchOf = (n: number): Batch =>
  Batch.fromSystems(Array.from({ length: n }, (_, s) => ({ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [1 + 0.1 * s, 0, 0]] })), { units: 'lj' });

describe('HostMemorySink against upstream TestHostMemory', () => {
  it('test_initialization / test_len_tracks_samples: capacity, length and isFull', () => {
    const sink = new HostMemorySink({ capacity: 10 });
    expect([sink.capacity, sink.length, sink.isFull]).toEqual([10, 0, false]);
    sink.write(batchOf(2));
    expect(sink.length).toBe(2);
    sink.write(batchOf(3));
    expect(sink.length).toBe(5);
  });

  it('test_write_read_roundtrip: positions come back as written', () => {
    const sink = new HostMemorySink({ capacity: 10 });
    const batch = batchOf(2);
    sink.write(batch);
    const read = sink.read();
    expect(read).toHaveLength(2);
    expect(read.map((s) => s.positions)).toEqual(batch.toSystems().map((s) => s.positions));
  });

  it('test_write_when_full_raises: a write past capacity is SINK_FULL and stores nothing', () => {
    const sink = new HostMemorySink({ capacity: 2 });
    sink.write(batchOf(2));
    expect(sink.isFull).toBe(true);
    expect(() => sink.write(batchOf(1))).toThrow(expect.objectContaining({ code: 'SINK_FULL' }));
    expect(sink.length).toBe(2);
  });

  it('test_write_with_mask / all-false / none / length mismatch', () => {
    const sink = new HostMemorySink({ capacity: 100 });
    sink.write(batchOf(4), [true, false, true, false]);
    expect(sink.length).toBe(2);
    sink.write(batchOf(4), [false, false, false, false]);
    expect(sink.length).toBe(2);
    sink.write(batchOf(3));
    expect(sink.length).toBe(5);
    expect(() => sink.write(batchOf(3), [true, false])).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
  });

  it('test_zero_clears_buffer: clear() (nvalchemi zero()) forgets what is held', () => {
    const sink = new HostMemorySink();
    sink.write(batchOf(2));
    sink.clear();
    expect(sink.length).toBe(0);
  });
});

describe('drain() against upstream TestDrainMethod', () => {
  it('returns what was written (every write) and empties the sink, which takes writes again', () => {
    const sink = new HostMemorySink({ capacity: 10 });
    sink.write(batchOf(2));
    sink.write(batchOf(3));
    expect(sink.drain()).toHaveLength(5);
    expect(sink.length).toBe(0);
    sink.write(batchOf(4));
    expect(sink.length).toBe(4);
  });

  it('an empty read or drain: [] by default, SINK_EMPTY with throwWhenEmpty (upstream raises "empty")', () => {
    const lenient = new HostMemorySink();
    expect(lenient.read()).toEqual([]);
    expect(lenient.drain()).toEqual([]);
    const strict = new HostMemorySink({ throwWhenEmpty: true });
    expect(() => strict.read()).toThrow(expect.objectContaining({ code: 'SINK_EMPTY' }));
    expect(() => strict.drain()).toThrow(expect.objectContaining({ code: 'SINK_EMPTY' }));
    strict.write(batchOf(1));
    expect(strict.drain()).toHaveLength(1);
    expect(() => new HostMemorySink({ throwWhenEmpty: 'yes' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
