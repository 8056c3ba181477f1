// Usage: node terminate.mjs <library URL> <runSync|run|quiet|exit> <tries>. Starts two MD workers per try and,
// once both are mid-run, terminates them (runSync, run) or calls process.exit(0) (exit, one try per
// process). Prints "survived" and exits 0 when the process outlived every termination.
import { Worker } from 'node:worker_threads';

const [library, mode, tries] = process.argv.slice(2);
const worker = new URL('./md-worker.mjs', import.meta.url);

function startWorker() {
  const instance = new Worker(worker, { workerData: { library, mode: mode === 'exit' ? 'runSync' : mode } });
  const running = new Promise((resolve, reject) => {
    instance.once('message', resolve);
    instance.once('error', reject);
  });
  return { instance, running };
}

for (let t = 0; t < Number(tries); t++) {
  const workers = [startWorker(), startWorker()];
  await Promise.all(workers.map((w) => w.running));
  // 'quiet' workers announce themselves just before their run: give it time to be deep in native code.
  if (mode === 'quiet') await new Promise((resolve) => setTimeout(resolve, 300));
  if (mode === 'exit') process.exit(0);
  await Promise.all(workers.map((w) => w.instance.terminate()));
}
console.log('survived');
