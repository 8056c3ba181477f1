// Numerical derivatives of a model's energy, for force and stress checks. They perturb the batch in place
// and restore it, so the model's neighbor lists see small moves (no rebuild) or cell changes (rebuild).
import type { Batch } from '../../lib/data/index.js';
import type { Model } from '../../lib/models/index.js';

function systemOfAtom(batch: Batch, atom: number): number {
  const ptr = batch.ptr;
  let s = 0;
  while (ptr[s + 1] <= atom) s++;
  return s;
}

/** −∂E/∂x by central differences with step h, for every atom (N×3). */
export function finiteDifferenceForces(model: Model, batch: Batch, h: number): Float64Array {
  const out = new Float64Array(3 * batch.numAtoms);
  for (let atom = 0; atom < batch.numAtoms; atom++) {
    const s = systemOfAtom(batch, atom);
    for (let c = 0; c < 3; c++) {
      const k = 3 * atom + c;
      const x0 = batch.positions[k];
      batch.positions[k] = x0 + h;
      model.compute(batch, { forces: false });
      const plus = batch.energy[s];
      batch.positions[k] = x0 - h;
      model.compute(batch, { forces: false });
      const minus = batch.energy[s];
      batch.positions[k] = x0;
      out[k] = -(plus - minus) / (2 * h);
    }
  }
  return out;
}

function det3(m: ArrayLike<number>, o: number): number {
  const a = (i: number): number => m[o + i];
  return a(0) * (a(4) * a(8) - a(5) * a(7)) - a(1) * (a(3) * a(8) - a(5) * a(6)) + a(2) * (a(3) * a(7) - a(4) * a(6));
}

/**
 * (1/V) ∂E/∂ε_ab of system s for symmetric strains (x → x(I + ε), cell rows likewise), by central
 * differences with strain step `delta`. Row-major 3×3.
 */
export function finiteDifferenceStress(model: Model, batch: Batch, s: number, delta: number): number[] {
  const ptr = batch.ptr;
  const positions = Float64Array.from(batch.positions);
  const cell = Float64Array.from(batch.cell);
  const volume = Math.abs(det3(cell, 9 * s));
  const energyAt = (strain: number[][]): number => {
    const apply = (source: Float64Array, target: Float64Array, row: number): void => {
      for (let c = 0; c < 3; c++) {
        target[row + c] = source[row] * strain[0][c] + source[row + 1] * strain[1][c] + source[row + 2] * strain[2][c] + source[row + c];
      }
    };
    for (let atom = ptr[s]; atom < ptr[s + 1]; atom++) apply(positions, batch.positions, 3 * atom);
    for (let r = 0; r < 3; r++) apply(cell, batch.cell, 9 * s + 3 * r);
    model.compute(batch, { forces: false });
    return batch.energy[s];
  };
  const out: number[] = [];
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      const strain = (sign: number): number[][] => {
        const e = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
        e[a][b] += (sign * delta) / (a === b ? 1 : 2);
        if (a !== b) e[b][a] += (sign * delta) / 2;
        return e;
      };
      out.push((energyAt(strain(1)) - energyAt(strain(-1))) / (2 * delta * volume));
    }
  }
  batch.positions.set(positions);
  batch.cell.set(cell);
  return out;
}
