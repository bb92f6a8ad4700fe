/**
 * The pairwise cap of `compare` and `select` (issue 42): all k(k − 1)/2 pairs
 * of k variants grow with the square of k (1,000 variants printed 144 MB;
 * 3,000 were killed at 4 GB). Beyond {@linkcode ALL_PAIRS_UP_TO} variants and
 * without a baseline, each variant is compared with the best observed one
 * (highest pass rate, the first seen on a tie) — k − 1 pairs — and a note
 * says so; `allPairs` (`--all-pairs`) forces every pair. The best observed of
 * many variants is likely flattered (the winner's curse), so the note
 * suggests a baseline.
 *
 * @module
 */

import type { VariantStats } from "./variant_stats.ts";

/** Up to this many variants, every pair is compared by default. */
export const ALL_PAIRS_UP_TO = 50;

/**
 * The variant with the highest observed pass rate (the first seen on a tie;
 * variants without runs come last).
 *
 * @param variants The variants, in first-seen order (at least one).
 * @returns The best observed.
 *
 * @example Usage
 * ```ts
 * import { bestObserved } from "./pair_cap.ts";
 * import assert from "node:assert/strict";
 *
 * const v = (variant: string, passRate: number | null) => ({ variant, passRate });
 * assert.equal(bestObserved([v("a", 0.5), v("b", 0.9), v("c", 0.9)]).variant, "b");
 * ```
 */
export function bestObserved<T extends Pick<VariantStats, "passRate">>(variants: readonly T[]): T {
  let best = variants[0]!;
  for (const stats of variants) {
    if (stats.passRate !== null && (best.passRate === null || stats.passRate > best.passRate)) {
      best = stats;
    }
  }
  return best;
}

/**
 * The note for a capped comparison.
 *
 * @param count The number of variants.
 * @param best The variant the others were compared with.
 * @returns The note.
 *
 * @example Usage
 * ```ts
 * import { cappedPairsNote } from "./pair_cap.ts";
 * import assert from "node:assert/strict";
 *
 * assert.match(cappedPairsNote(60, "b"), /^60 variants: each compared with b/);
 * ```
 */
export function cappedPairsNote(count: number, best: string): string {
  return `${count} variants: each compared with ${best}, the best observed (${count - 1} pairs), ` +
    `not all ${(count * (count - 1)) / 2} pairs (more than ${ALL_PAIRS_UP_TO} variants); ` +
    "give --baseline V to compare with a variant you choose, or --all-pairs for every pair";
}
