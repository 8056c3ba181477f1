// The PyTorch export of docs/models.md ("Exporting a PyTorch potential") runs as written under Debian's
// python3-torch, and the file it writes loads in OnnxModel and gives the energy of its formula and forces
// that are the gradient of that energy. Skipped, saying why, without torch or onnxruntime-node.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { OnnxModel } from '../../lib/models/index.js';
import { onnxSkipReason } from '../helpers/onnx.js';
import { ROOT } from '../cli/run-cli.js';

const torchPython = ['/usr/bin/python3', 'python3'].find((python) => spawnSync(python, ['-c', 'import torch'], { stdio: 'ignore' }).status === 0);
const skipReason = torchPython === undefined ? 'skipped: no python3 with torch (apt-get install python3-torch)' : onnxSkipReason;
const dir = mkdtempSync(join(tmpdir(), 'hookmd-torch-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(skipReason !== '')(`docs/models.md: exporting a PyTorch potential ${skipReason}`, () => {
  it('runs as written, and the model it writes computes the Buckingham energy and its gradient in OnnxModel', async () => {
    const blocks = [...readFileSync(join(ROOT, 'docs', 'models.md'), 'utf8').matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toHaveLength(1);
    writeFileSync(join(dir, 'export.py'), blocks[0]);
    const run = spawnSync(torchPython as string, ['export.py'], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
    expect(run.status, run.stderr).toBe(0);
    const model = await OnnxModel.load(join(dir, 'buckingham.onnx'), { cutoff: 6 });
    const phi = (r: number): number => 1000 * Math.exp(-r / 0.3) - 10 / r ** 6;
    const trimer = (dx: number) => ({ symbols: ['Ar', 'Ar', 'Ar'], positions: [[dx, 0, 0], [2.0, 0, 0], [0, 2.5, 0]] });
    const batch = Batch.fromSystems([trimer(0), { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 2.2]] }]);
    await model.compute(batch);
    expect(batch.energy[0]).toBeCloseTo(phi(2) + phi(2.5) + phi(Math.hypot(2, 2.5)), 12);
    expect(batch.energy[1]).toBeCloseTo(phi(2.2), 12);
    const energyAt = async (dx: number): Promise<number> => {
      const probe = Batch.fromSystems([trimer(dx)]);
      await model.compute(probe);
      return probe.energy[0];
    };
    const h = 1e-6;
    expect(batch.forces[0]).toBeCloseTo(-((await energyAt(h)) - (await energyAt(-h))) / (2 * h), 5);
    await model.close();
  }, 300_000);
});
