/**
 * The closest real name to a misspelt one, for "did you mean" hints.
 *
 * @module
 */

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Options for {@linkcode closestName}. */
export interface ClosestNameOptions {
  /**
   * The largest edit distance that still counts as similar.
   * @default {Infinity}
   */
  maxDistance?: number;
}

/**
 * The candidate with the smallest edit distance to a name (case-insensitive;
 * ties go to the earlier candidate), or `null` when there are none within
 * `maxDistance`.
 *
 * @param name The name that was not found.
 * @param candidates The names that exist.
 * @param options How far a candidate may be.
 * @returns The closest candidate, or `null`.
 *
 * @example Usage
 * ```ts
 * import { closestName } from "./closest_name.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(closestName("serch_flights", ["book_flight", "search_flights"]), "search_flights");
 * assert.equal(closestName("x", []), null);
 * assert.equal(closestName("cancel_booking", ["ping"], { maxDistance: 7 }), null);
 * ```
 */
export function closestName(
  name: string,
  candidates: readonly string[],
  options: ClosestNameOptions = {},
): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  const lower = name.toLowerCase();
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= (options.maxDistance ?? Infinity) ? best : null;
}
