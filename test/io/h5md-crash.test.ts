// Issue 46, item 2: H5mdSink appends crash-consistently. A writer SIGKILLed at random moments (its appends
// one frame each, forces first appearing at step 5: a new element made mid-file) leaves a file that
// readH5md reads in whole frames, step k holding frame k's energy and forces, and that h5py reads with
// swmr=True. A few kills in `npm test`, many under `npm run test:fuzz`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRng } from '../../lib/data/index.js';
import { readH5md } from '../../lib/io/index.js';
import { ensureBuilt, workDir } from '../cli/run-cli.js';
import { asePython } from '../helpers/ase.js';
import { budgetMs, cases } from '../helpers/fuzz-budget.js';

const rng = createRng(Number(process.env.HOOKMD_FUZZ_SEED ?? 46_002));
const h5py = asePython !== undefined && spawnSync(asePython, ['-c', 'import h5py'], { stdio: 'ignore' }).status === 0;
let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = workDir('hookmd-h5md-crash-');
  writeFileSync(join(dir, 'writer.mjs'), [
    "import { bulk, H5mdSink } from 'hookmd';",
    "const cu = bulk('Cu', 'fcc', { a: 3.61, cubic: true });",
    "const sink = new H5mdSink(process.argv[2], { capacity: 1 });",
    'for (let step = 0; ; step++) {',
    '  const forces = step >= 5 ? cu.positions.map((x) => [step, -step, x[0]]) : undefined;',
    '  await sink.write([{ ...cu, energy: -step, forces, info: { step } }]);',
    "  if (step === 0) process.stdout.write('started\\n');",
    '}',
    '',
  ].join('\n'));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the writer on `path` and SIGKILLs it `delayMs` after its first frame is on disk. */
function killWriter(path: string, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['writer.mjs', path], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the writer exited (${code}): ${stderr}`))));
  });
}

describe('H5mdSink killed mid-run', () => {
  it(`leaves whole frames that readH5md and h5py (swmr=True) read (${cases(4, 40)} kills)`, async () => {
    for (let k = 0; k < cases(4, 40); k++) {
      const path = join(dir, `md-${k}.h5md`);
      await killWriter(path, Math.floor(rng.uniform() * 400));
      expect(existsSync(path)).toBe(true);
      const frames = await readH5md(path);
      expect(frames.length).toBeGreaterThan(0);
      frames.forEach((frame, step) => {
        expect(frame.info?.step).toBe(step);
        expect(frame.positions).toHaveLength(4);
        expect(frame.energy).toBe(-step);
        // Forces pass through kJ/(mol·Å) (MDAnalysis's unit) and back: to the last bits.
        if (step >= 5) (frame.forces as number[][])[0].forEach((f, c) => expect(f).toBeCloseTo([step, -step, 0][c] as number, 12));
        else expect(frame.forces).toBeUndefined();
      });
      if (h5py) {
        const read = spawnSync(asePython as string, ['-c', `import h5py, sys
f = h5py.File(sys.argv[1], 'r', swmr=True)
p = f['particles/all/position']
print(min(p['step'].shape[0], p['value'].shape[0]))`, path], { encoding: 'utf8' });
        expect(read.status, read.stderr).toBe(0);
        expect(Number(read.stdout)).toBeGreaterThanOrEqual(frames.length);
      }
    }
  }, budgetMs(120_000, 900_000));
});
