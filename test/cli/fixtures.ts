// Small inputs for the CLI tests, written as real extxyz files: LJ13 clusters in lj units (relaxing
// them takes about a hundred FIRE steps) and an argon-like trimer set in metal units.
import { join } from 'node:path';

import { writeExtxyz } from '../../lib/io/index.js';
import { perturbedLj13 } from '../dynamics/lj-systems.js';

/** The LJ model flag for lj-unit inputs. */
export const LJ_MODEL = 'lj:epsilon=1,sigma=1,cutoff=2.5';

/** Writes `count` perturbed LJ13 clusters (lj units) to `dir/name`; returns the path. */
export async function writeClusters(dir: string, count: number, name = 'clusters.xyz'): Promise<string> {
  const path = join(dir, name);
  const systems = Array.from({ length: count }, (_, i) => ({ ...perturbedLj13(0.08, 0.37 * i), info: { tag: i } }));
  await writeExtxyz(path, systems, { units: 'lj' });
  return path;
}
