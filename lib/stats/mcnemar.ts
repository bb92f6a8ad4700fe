/**
 * McNemar's exact test for two variants whose runs are matched one to one.
 *
 * @module
 */

import { logFactorial } from "./_log_factorial.ts";
import { checkRunCount } from "./wilson.ts";

/**
 * The two-sided exact McNemar p-value from the discordant counts of matched
 * runs: `min(1, 2 · BinomCDF(min(b, c); b + c, 1/2))`, and 1 when
 * `b + c = 0`.
 *
 * Source: McNemar (1947), "Note on the sampling error of the difference
 * between correlated proportions or percentages", Psychometrika 12(2); the
 * exact (binomial) form is the one statsmodels computes in
 * `statsmodels.stats.contingency_tables.mcnemar(table, exact=True)`. The
 * binomial tail is summed from its largest term downwards, with the first
 * term `C(n, k)/2ⁿ` taken in log space, so counts in the hundreds of
 * thousands neither overflow nor underflow early.
 *
 * @param b Pairs where the first variant passed and the second did not.
 * @param c Pairs where the second variant passed and the first did not.
 * @returns The p-value in [0, 1].
 * @throws {InputError} When a count is not a non-negative integer.
 *
 * @example Usage
 * ```ts
 * import { mcnemarExact } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(mcnemarExact(0, 0), 1);
 * assert.ok(Math.abs(mcnemarExact(1, 9) - 0.021484375) < 1e-15); // 2 · 11/1024
 * ```
 */
export function mcnemarExact(b: number, c: number): number {
  checkRunCount(b, "b");
  checkRunCount(c, "c");
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  // With b = c the lower tail holds at least half the mass: p = 1.
  if (2 * k >= n) return 1;
  // Terms t_i = C(n, i) / 2ⁿ grow with i up to n/2, so start at i = k and walk down.
  const logFirst = logFactorial(n) - logFactorial(k) - logFactorial(n - k) - n * Math.LN2;
  let ratio = 1;
  let sum = 1;
  for (let i = k; i > 0; i--) {
    ratio *= i / (n - i + 1);
    sum += ratio;
    if (ratio < sum * 1e-17) break;
  }
  return Math.min(1, 2 * Math.exp(logFirst + Math.log(sum)));
}
