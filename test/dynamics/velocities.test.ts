import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { initializeVelocities, temperatures } from '../../lib/dynamics/index.js';
import { ljFcc } from './lj-systems.js';

describe('initializeVelocities', () => {
  it('draws Maxwell–Boltzmann velocities with zero momentum per system, in metal units', () => {
    const argon = { ...ljFcc(6), symbols: Array(864).fill('Ar') };
    const copper = { ...ljFcc(6), symbols: Array(864).fill('Cu') };
    const batch = Batch.fromSystems([argon, copper]);
    initializeVelocities(batch, { temperature: [300, 1000], seed: 1 });
    const v = batch.read('velocities');
    const m = batch.read('masses');
    const ptr = batch.read('ptr');
    for (let s = 0; s < 2; s++) {
      const p = [0, 0, 0];
      for (let i = ptr[s]; i < ptr[s + 1]; i++) for (let c = 0; c < 3; c++) p[c] += m[i] * v[3 * i + c];
      for (const component of p) expect(Math.abs(component)).toBeLessThan(1e-10);
    }
    // 3·864 − 3 degrees of freedom: the sample temperature is within a few % of the target.
    const t = temperatures(batch);
    expect(t[0] / 300).toBeGreaterThan(0.95);
    expect(t[0] / 300).toBeLessThan(1.05);
    expect(t[1] / 1000).toBeGreaterThan(0.95);
    expect(t[1] / 1000).toBeLessThan(1.05);
    // Equipartition in metal units: ½ m ⟨v²⟩ per component = ½ k_B T, with m v² converted by 1/9.648533212e-3.
    let sum = 0;
    for (let i = 0; i < 864; i++) sum += (m[i] * v[3 * i] ** 2) / 9.648533212e-3;
    expect(sum / 864 / (8.617333262e-5 * 300)).toBeCloseTo(1, 0);
  });

  it('is reproducible from its seed, and exact: true hits the temperature exactly', () => {
    const a = Batch.fromSystems([ljFcc(3)], { units: 'lj' });
    const b = Batch.fromSystems([ljFcc(3)], { units: 'lj' });
    initializeVelocities(a, { temperature: 2, seed: 5, exact: true });
    initializeVelocities(b, { temperature: 2, seed: 5, exact: true });
    expect(Array.from(a.read('velocities'))).toEqual(Array.from(b.read('velocities')));
    expect(temperatures(a)[0]).toBeCloseTo(2, 12);
  });

  it('rejects bad arguments', () => {
    const batch = Batch.fromSystems([ljFcc(1)], { units: 'lj' });
    expect(() => initializeVelocities(batch, { temperature: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => initializeVelocities(batch, { temperature: [1, 2] })).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    expect(() => initializeVelocities(batch, { temperature: 1, seed: 0.5 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
  });
});
