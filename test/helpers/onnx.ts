// ONNX test models, written by scripts/make-onnx-models.py (Debian's python3-onnx) into a temporary folder.
// Tests skip, saying why, only when python3-onnx or onnxruntime-node is missing; .ci/run installs both.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/make-onnx-models.py');
const PYTHONS = ['/usr/bin/python3', 'python3'];

const onnxPython = PYTHONS.find((python) => spawnSync(python, ['-c', 'import onnx, numpy'], { stdio: 'ignore' }).status === 0);
/** Whether onnxruntime-node (an optional peer dependency) can be imported here. */
export const ortInstalled: boolean = ((): boolean => {
  try {
    createRequire(import.meta.url).resolve('onnxruntime-node');
    return true;
  } catch {
    return false;
  }
})();

/** Why ONNX tests are skipped here (empty when they run). */
export const onnxSkipReason: string =
  onnxPython === undefined ? 'skipped: no python3 with onnx (apt-get install python3-onnx)' : !ortInstalled ? 'skipped: onnxruntime-node is not installed' : '';

let folder: string | undefined;

/** Writes a model with make-onnx-models.py (`kind` and its flags) and returns its path. */
export function makeOnnxModel(file: string, kind: 'lj' | 'embed' | 'broken', flags: string[] = []): string {
  if (onnxPython === undefined) throw new Error(onnxSkipReason);
  folder ??= mkdtempSync(join(tmpdir(), 'hookmd-onnx-'));
  const path = join(folder, file);
  execFileSync(onnxPython, [SCRIPT, kind, path, ...flags], { stdio: 'pipe' });
  return path;
}
