// How hard the property and crash suites push: a few seconds per suite in `npm test` (CI), many more cases
// under `npm run test:fuzz` (HOOKMD_FUZZ=1). A failing seed is printed by fast-check and replays as given.

/** True under `npm run test:fuzz`. */
export const FUZZ: boolean = process.env.HOOKMD_FUZZ === '1';

/** `ci` cases in the normal suite, `fuzz` under test:fuzz. */
export function cases(ci: number, fuzz: number): number {
  return FUZZ ? fuzz : ci;
}

/** A test timeout (ms) that grows with the fuzz budget. */
export function budgetMs(ci: number, fuzz: number): number {
  return FUZZ ? fuzz : ci;
}
