/**
 * One-to-one pairing of expected and actual calls, per tool.
 *
 * For a tool expected g times and called t times, exactly min(g, t) pairs are
 * made. Among those assignments the pairing prefers, in order: the most
 * matching argument keys; then the fewest argument keys sent in the paired
 * actual calls (pairs whose gold args are unchecked don't count); then the
 * smallest total |i − j| of positions. The three criteria are folded into one
 * exact integer cost and solved with the Hungarian algorithm.
 *
 * **Size limit** (issue 20): pairing stays exact and is never greedy. A tool
 * is paired when its expected × actual calls are at most
 * {@linkcode MAX_PAIRING_CELLS} = 1,000,000 (1,000 × 1,000, 10 × 100,000) and
 * the folded totals fit in 2^53; a larger group is an `InputError` naming the
 * tool, raised before anything of its size is allocated (in milliseconds,
 * where 100,000 × 100,000 used to run out of memory after 13 s). Split such a
 * trace into smaller runs, or expect fewer calls of that tool;
 * `toolscore contract init` warns when a trace is over the limit.
 *
 * @module
 */

import type { ToolCall } from "./calls.ts";
import { groupCalls, pairGroups } from "./_tool_groups.ts";
import { valuesMatch } from "./matchers.ts";

export { MAX_PAIRING_CELLS } from "./hungarian.ts";

/** One expected call paired with one actual call. */
export interface CallPair {
  /** Index in the expected calls. */
  expected: number;
  /** Index in the actual calls. */
  actual: number;
  /** Expected argument keys whose values matched (0 when args are unchecked). */
  matchedKeys: number;
}

/** Options for {@linkcode pairCalls} and {@linkcode matchedKeyCount}. */
export interface PairingOptions {
  /**
   * Compare argument values exactly (same type, no trimming).
   * @default {false}
   */
  strict?: boolean;
}

export { argsChecked } from "./_tool_groups.ts";

/**
 * How many of the expected call's argument keys the actual call matches.
 *
 * @param expected The expected call.
 * @param actual The actual call.
 * @param options Lenient or strict comparison.
 * @returns The count (0 when args are unchecked or did not parse).
 *
 * @example Usage
 * ```ts
 * import { matchedKeyCount } from "./pairing.ts";
 * import assert from "node:assert/strict";
 *
 * const n = matchedKeyCount({ tool: "a", args: { x: 1, y: 2 } }, { tool: "a", args: { x: 1 } });
 * assert.equal(n, 1);
 * ```
 */
export function matchedKeyCount(
  expected: ToolCall,
  actual: ToolCall,
  options: PairingOptions = {},
): number {
  const want = expected.args;
  const got = actual.args;
  if (want === undefined || want === null || actual.argsError !== undefined || !got) return 0;
  let count = 0;
  for (const key in want) {
    if (!Object.hasOwn(got, key)) continue;
    const expectedValue = want[key];
    const actualValue = got[key];
    // Identical primitives match in both modes; everything else goes through valuesMatch.
    if (expectedValue === actualValue && typeof expectedValue !== "object") count++;
    else if (valuesMatch(expectedValue, actualValue, options)) count++;
  }
  return count;
}

/**
 * Pair expected and actual calls one-to-one per tool (see the module doc).
 *
 * @param expected The expected calls.
 * @param actual The actual calls.
 * @param options Lenient or strict comparison.
 * @returns The pairs, sorted by expected index.
 *
 * @example Usage
 * ```ts
 * import { pairCalls } from "./pairing.ts";
 * import assert from "node:assert/strict";
 *
 * const pairs = pairCalls(
 *   [{ tool: "s", args: { q: "a" } }, { tool: "s", args: { q: "b" } }],
 *   [{ tool: "s", args: { q: "b" } }, { tool: "s", args: { q: "a" } }],
 * );
 * assert.deepEqual(pairs.map((p) => [p.expected, p.actual]), [[0, 1], [1, 0]]);
 * ```
 */
export function pairCalls(
  expected: ToolCall[],
  actual: ToolCall[],
  options: PairingOptions = {},
): CallPair[] {
  const { partner, matchedKeys } = pairGroups(
    groupCalls(expected, actual),
    expected,
    actual,
    options.strict ?? false,
  );
  const pairs: CallPair[] = [];
  for (let i = 0; i < expected.length; i++) {
    if (partner[i]! >= 0) {
      pairs.push({ expected: i, actual: partner[i]!, matchedKeys: matchedKeys[i]! });
    }
  }
  return pairs;
}
