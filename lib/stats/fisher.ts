/**
 * Fisher's exact test for two pass/fail counts.
 *
 * @module
 */

import { logFactorial } from "./_log_factorial.ts";
import { checkRunCount } from "./wilson.ts";

// R's fisher.test tolerance: tables within this relative distance of the
// observed probability count as ties (as likely as the observed table).
const TIE_TOLERANCE = Math.log1p(1e-7);
// Terms this much smaller than the running sum no longer change it.
const NEGLIGIBLE = Math.log(1e-18);

/**
 * Two-sided Fisher exact test p-value for the 2×2 table `[[a, b], [c, d]]`
 * (rows are variants, columns pass / not pass).
 *
 * The p-value sums the hypergeometric probabilities of every table with the
 * same margins that is no more likely than the observed one; tables within a
 * relative 1e-7 of the observed probability count as ties (R's tolerance).
 * The sum starts at the most likely table and walks outwards in log space, so
 * counts in the hundreds of thousands stay fast. A zero margin gives 1.
 *
 * @param a Passes of the first variant.
 * @param b Non-passes of the first variant.
 * @param c Passes of the second variant.
 * @param d Non-passes of the second variant.
 * @returns The p-value in [0, 1].
 * @throws {InputError} When a count is not a non-negative integer.
 *
 * @example Usage
 * ```ts
 * import { fisherExact } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.ok(Math.abs(fisherExact(8, 2, 1, 5) - 0.034965034965034975) < 1e-9);
 * assert.equal(fisherExact(10, 10, 10, 10), 1);
 * ```
 */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  checkRunCount(a, "a");
  checkRunCount(b, "b");
  checkRunCount(c, "c");
  checkRunCount(d, "d");
  const row1 = a + b;
  const row2 = c + d;
  const column1 = a + c;
  const total = row1 + row2;
  if (row1 === 0 || row2 === 0 || column1 === 0 || column1 === total) return 1;

  const low = Math.max(0, column1 - row2);
  const high = Math.min(row1, column1);
  // The log probability of the table with x in the top-left cell, up to a constant.
  const logWeight = (x: number): number =>
    -(logFactorial(x) + logFactorial(row1 - x) + logFactorial(column1 - x) +
      logFactorial(row2 - column1 + x));
  const mode = Math.min(
    high,
    Math.max(low, Math.floor(((column1 + 1) * (row1 + 1)) / (total + 2))),
  );
  const top = logWeight(mode);
  const observed = logWeight(a);
  const threshold = observed + TIE_TOLERANCE;
  if (top <= threshold) return 1;

  // The sum of every table's weight relative to the mode (the normalizer).
  let everything = 1;
  for (let x = mode - 1; x >= low; x--) {
    const term = Math.exp(logWeight(x) - top);
    everything += term;
    if (term < 1e-18 * everything) break;
  }
  for (let x = mode + 1; x <= high; x++) {
    const term = Math.exp(logWeight(x) - top);
    everything += term;
    if (term < 1e-18 * everything) break;
  }

  // The weights fall away from the mode, so the qualifying tables are two
  // tails; find where each starts by bisection, then sum outwards relative
  // to the observed table.
  let tail = 0;
  const leftStart = lastAtMost(low, mode - 1, (x) => logWeight(x) <= threshold);
  if (leftStart !== undefined) {
    for (let x = leftStart; x >= low; x--) {
      const relative = logWeight(x) - observed;
      tail += Math.exp(relative);
      if (relative < NEGLIGIBLE + Math.log(tail)) break;
    }
  }
  const rightStart = firstAtLeast(mode + 1, high, (x) => logWeight(x) <= threshold);
  if (rightStart !== undefined) {
    for (let x = rightStart; x <= high; x++) {
      const relative = logWeight(x) - observed;
      tail += Math.exp(relative);
      if (relative < NEGLIGIBLE + Math.log(tail)) break;
    }
  }
  const p = Math.exp(observed - top + Math.log(tail) - Math.log(everything));
  return Math.min(1, Math.max(0, p));
}

/** The largest x in [from, to] with `holds(x)`, where `holds` is true up to a point. */
function lastAtMost(from: number, to: number, holds: (x: number) => boolean): number | undefined {
  if (to < from || !holds(from)) return undefined;
  let good = from;
  let bad = to + 1;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (holds(middle)) good = middle;
    else bad = middle;
  }
  return good;
}

/** The smallest x in [from, to] with `holds(x)`, where `holds` is true from a point on. */
function firstAtLeast(
  from: number,
  to: number,
  holds: (x: number) => boolean,
): number | undefined {
  if (to < from || !holds(to)) return undefined;
  let bad = from - 1;
  let good = to;
  while (good - bad > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (holds(middle)) good = middle;
    else bad = middle;
  }
  return good;
}
