// Reference data for the training tests: random argon (and krypton) clusters and strained, rattled fcc
// crystals, labelled with energy, forces and (crystals only) stress by one of hookmd's own models.
import { Batch, bulk, createRng, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import type { Model } from '../../lib/models/index.js';

/** The argon parameters the recovery test must find (metal units). */
export const ARGON = { epsilon: 0.0104, sigma: 3.4 } as const;

/** A random cluster of `count` atoms with no two closer than `minDistance` (Å). */
export function randomCluster(count: number, seed: number, symbols: readonly string[] = ['Ar'], minDistance: number = 3.3): System {
  const rng = createRng(seed);
  const radius = minDistance * Math.cbrt(count) * 0.75;
  const positions: number[][] = [];
  while (positions.length < count) {
    const p = [0, 1, 2].map(() => (2 * rng.uniform() - 1) * radius);
    if (Math.hypot(p[0], p[1], p[2]) > radius) continue;
    if (positions.every((q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) >= minDistance)) positions.push(p);
  }
  return { positions, symbols: positions.map((_, i) => symbols[i % symbols.length]) };
}

/** A 2×2×2 conventional fcc crystal (32 atoms), strained by `strain` along the axes and rattled. */
export function strainedCrystal(strain: readonly [number, number, number], seed: number, symbol: string = 'Ar'): System {
  const crystal = repeat(bulk(symbol, 'fcc', { a: 5.26, cubic: true }), [2, 2, 2]);
  const cell = (crystal.cell as number[][]).map((row, i) => row.map((x) => x * (1 + strain[i])));
  const positions = (crystal.positions as number[][]).map((p) => p.map((x, c) => x * (1 + strain[c])));
  return rattle({ ...crystal, cell, positions }, 0.08, seed);
}

/**
 * `clusters` random clusters (13–30 atoms) and `crystals` strained crystals, labelled by `model`. Clusters
 * carry no stress (they have no cell).
 */
export function argonSet(model: Model, options: { clusters: number; crystals: number; seed: number; symbols?: readonly string[]; minDistance?: number }): System[] {
  const rng = createRng(options.seed);
  const systems: System[] = [];
  for (let k = 0; k < options.clusters; k++) systems.push(randomCluster(13 + Math.floor(rng.uniform() * 18), options.seed * 1000 + k, options.symbols, options.minDistance));
  for (let k = 0; k < options.crystals; k++) {
    const strain = [0, 1, 2].map(() => 0.06 * (rng.uniform() - 0.5)) as [number, number, number];
    systems.push(strainedCrystal(strain, options.seed * 1000 + 500 + k));
  }
  return label(model, systems);
}

/** Copies of `systems` with `model`'s energy, forces and (for systems with a cell) stress. */
export function label(model: Model, systems: readonly System[]): System[] {
  const batch = Batch.fromSystems(systems);
  model.compute(batch, { stress: true });
  return batch.toSystems().map((s, i) => {
    const hasCell = systems[i].cell !== undefined;
    const { stress, ...rest } = s;
    return { ...rest, ...(hasCell ? { stress } : {}), info: {} };
  });
}
