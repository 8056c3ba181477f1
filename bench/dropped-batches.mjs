// Memory of batches dropped in a loop (issue 39, item 19): each iteration builds a 256,000-atom Cu batch,
// reads its positions and drops it, 150 times, in a fresh child process per mode. The baseline yields to the
// event loop (setImmediate) after every batch, so Node's deferred finalizers run between iterations; the
// measured loop never yields. Peak RSS of each child, best (lowest) of 3 interleaved rounds.
// Usage: node bench/dropped-batches.mjs [--batches 150] [--rounds 3]
import { childMain, machineLine, markdownTable, parseArgs, runChild } from './lib/harness.mjs';

const options = parseArgs({ batches: 150, rounds: 3, cells: 40 });

async function dropBatches({ batches, cells, yieldEach }) {
  const { Batch } = await import('../dist/index.js');
  const a = 3.615;
  const basis = [[0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]];
  const positions = new Float64Array(12 * cells ** 3);
  let n = 0;
  for (let i = 0; i < cells; i++) for (let j = 0; j < cells; j++) for (let k = 0; k < cells; k++) {
    for (const [x, y, z] of basis) positions.set([(i + x) * a, (j + y) * a, (k + z) * a], 3 * n++);
  }
  const L = cells * a;
  const arrays = { positions, atomicNumbers: new Int32Array(n).fill(29), numAtomsPerSystem: new Int32Array([n]), cell: new Float64Array([L, 0, 0, 0, L, 0, 0, 0, L]), pbc: new Uint8Array([1, 1, 1]) };
  const started = performance.now();
  for (let b = 0; b < batches; b++) {
    const batch = Batch.fromArrays(arrays);
    batch.read('positions');
    if (yieldEach) await new Promise((resolve) => setImmediate(resolve));
  }
  return { atoms: n, seconds: (performance.now() - started) / 1e3 };
}

if (!(await childMain(dropBatches))) {
  const start = machineLine();
  const best = { yielding: Infinity, synchronous: Infinity };
  let atoms = 0;
  for (let round = 0; round < options.rounds; round++) {
    for (const [mode, yieldEach] of [['yielding', true], ['synchronous', false]]) {
      const result = await runChild(new URL(import.meta.url), { batches: Number(options.batches), cells: Number(options.cells), yieldEach });
      atoms = result.atoms;
      best[mode] = Math.min(best[mode], result.peakRssMiB);
      process.stderr.write(`round ${round + 1} ${mode}: peak RSS ${result.peakRssMiB.toFixed(0)} MiB, ${result.seconds.toFixed(1)} s\n`);
    }
  }
  console.log(`${start}; ${options.batches} batches of ${atoms} atoms, best of ${options.rounds} interleaved rounds`);
  console.log(markdownTable(['loop', 'peak RSS MiB', 'ratio to the yielding loop'], [
    ['one setImmediate per batch (baseline)', best.yielding.toFixed(0), '1.00'],
    ['synchronous, no yield', best.synchronous.toFixed(0), (best.synchronous / best.yielding).toFixed(2)],
  ]));
}
