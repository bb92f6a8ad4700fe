/**
 * One-to-one pairing of expected and actual calls, per tool.
 *
 * For a tool expected g times and called t times, exactly min(g, t) pairs are
 * made. Among those assignments the pairing prefers, in order: the most
 * matching argument keys; then the fewest argument keys sent in the paired
 * actual calls (pairs whose gold args are unchecked don't count); then the
 * smallest total |i − j| of positions. The three criteria are folded into one
 * exact integer cost and solved with the Hungarian algorithm, for any size
 * whose folded totals fit in 2^53 (a tool called tens of thousands of times in
 * one trace would not, and is refused rather than paired greedily).
 *
 * @module
 */

import type { ToolCall } from "./calls.ts";
import { InputError } from "./errors.ts";
import { hungarian, MAX_EXACT_COST } from "./hungarian.ts";
import { valuesMatch } from "./matchers.ts";

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

/**
 * Whether an expected call checks arguments (`args` present and not null).
 *
 * @param call An expected call.
 * @returns `true` when its arguments are checked.
 *
 * @example Usage
 * ```ts
 * import { argsChecked } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(argsChecked({ tool: "a" }), false);
 * assert.equal(argsChecked({ tool: "a", args: {} }), true);
 * ```
 */
export function argsChecked(call: ToolCall): boolean {
  return call.args !== undefined && call.args !== null;
}

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
 * import { matchedKeyCount } from "@toolscore/cli";
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

function keyCount(args: ToolCall["args"]): number {
  if (!args) return 0;
  let n = 0;
  for (const _ in args) n++;
  return n;
}

function indexByTool(calls: ToolCall[]): Map<string, number[]> {
  const byTool = new Map<string, number[]>();
  calls.forEach((call, i) => {
    const list = byTool.get(call.tool);
    if (list) list.push(i);
    else byTool.set(call.tool, [i]);
  });
  return byTool;
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
 * import { pairCalls } from "@toolscore/cli";
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
  const pairs: CallPair[] = [];
  const actualByTool = indexByTool(actual);
  for (const [tool, goldIndexes] of indexByTool(expected)) {
    const actualIndexes = actualByTool.get(tool);
    if (!actualIndexes) continue;
    pairTool(tool, goldIndexes, actualIndexes, expected, actual, options, pairs);
  }
  return pairs.sort((a, b) => a.expected - b.expected);
}

// Reused working arrays: pairing runs per tool per trace, and allocating fresh typed arrays
// each time cost more than the pairing itself on small tools. Each getter returns a zeroed
// view of at least `size` elements; the numbered slots keep simultaneous views apart.
// (Pairing never re-enters itself, so one set per thread is enough.)
const scratch = (() => {
  const ints = [new Int32Array(64), new Int32Array(64)];
  const bytes = [new Uint8Array(64), new Uint8Array(64)];
  let floats = new Float64Array(64);
  const grow = <T extends Int32Array | Uint8Array | Float64Array>(
    buffer: T,
    size: number,
    make: (n: number) => T,
  ): T => (buffer.length >= size ? buffer : make(Math.max(size, buffer.length * 2)));
  return {
    ints(slot: number, size: number): Int32Array {
      const buffer = ints[slot] = grow(ints[slot]!, size, (n) => new Int32Array(n));
      const view = buffer.subarray(0, size);
      view.fill(0);
      return view;
    },
    bytes(slot: number, size: number): Uint8Array {
      const buffer = bytes[slot] = grow(bytes[slot]!, size, (n) => new Uint8Array(n));
      const view = buffer.subarray(0, size);
      view.fill(0);
      return view;
    },
    floats(size: number): Float64Array {
      floats = grow(floats, size, (n) => new Float64Array(n));
      const view = floats.subarray(0, size);
      view.fill(0);
      return view;
    },
  };
})();

function pairTool(
  tool: string,
  goldIndexes: number[],
  actualIndexes: number[],
  expected: ToolCall[],
  actual: ToolCall[],
  options: PairingOptions,
  out: CallPair[],
): void {
  const g = goldIndexes.length;
  const t = actualIndexes.length;
  if (g === 1 && t === 1) {
    const e = goldIndexes[0]!;
    const a = actualIndexes[0]!;
    out.push({
      expected: e,
      actual: a,
      matchedKeys: matchedKeyCount(expected[e]!, actual[a]!, options),
    });
    return;
  }
  const matched = scratch.ints(0, g * t);
  const known = scratch.bytes(0, g * t); // which matched[] entries are computed
  if (g === t) {
    const inOrder = inOrderFullMatch(
      goldIndexes,
      actualIndexes,
      expected,
      actual,
      options,
      matched,
    );
    for (let d = 0; d < g; d++) known[d * t + d] = 1;
    if (inOrder) {
      out.push(...inOrder);
      return;
    }
  }
  const sent = scratch.ints(1, t);
  let matchBound = 0;
  let sentBound = 0;
  for (let j = 0; j < t; j++) {
    sent[j] = keyCount(actual[actualIndexes[j]!]!.args);
    sentBound += sent[j]!;
  }
  for (let i = 0; i < g; i++) {
    const gold = expected[goldIndexes[i]!]!;
    if (!argsChecked(gold)) continue;
    matchBound += keyCount(gold.args);
    for (let j = 0; j < t; j++) {
      if (known[i * t + j]) continue;
      matched[i * t + j] = matchedKeyCount(gold, actual[actualIndexes[j]!]!, options);
    }
  }
  // Indexes are ascending, so the largest distance is between opposite ends.
  const maxDistance = Math.max(
    Math.abs(goldIndexes[0]! - actualIndexes[t - 1]!),
    Math.abs(goldIndexes[g - 1]! - actualIndexes[0]!),
  );
  const k = Math.min(g, t);
  const distanceScale = 1; // the last criterion
  const sentScale = k * maxDistance + 1; // any distance total is below one unit of "sent"
  const matchScale = (sentBound + 1) * sentScale; // any sent total is below one unit of "match"
  if ((matchBound + 1) * matchScale > MAX_EXACT_COST) {
    throw new InputError(
      `${g} expected and ${t} actual calls of one tool are too many to pair exactly`,
      `tool ${tool}`,
    );
  }
  // Rows are the shorter side; cost[r * columns + c] is the folded cost of that pairing.
  const rowsAreGold = g <= t;
  const rows = rowsAreGold ? g : t;
  const columns = rowsAreGold ? t : g;
  const cost = scratch.floats(rows * columns);
  for (let i = 0; i < g; i++) {
    const checked = argsChecked(expected[goldIndexes[i]!]!);
    for (let j = 0; j < t; j++) {
      const value = -matched[i * t + j]! * matchScale + (checked ? sent[j]! : 0) * sentScale +
        Math.abs(goldIndexes[i]! - actualIndexes[j]!) * distanceScale;
      cost[rowsAreGold ? i * t + j : j * g + i] = value;
    }
  }
  const assignment = rowMinimaAssignment(rows, columns, cost) ??
    hungarian(rows, columns, (r, c) => cost[r * columns + c]!);
  assignment.forEach((c, r) => {
    const i = rowsAreGold ? r : c;
    const j = rowsAreGold ? c : r;
    out.push({
      expected: goldIndexes[i]!,
      actual: actualIndexes[j]!,
      matchedKeys: matched[i * t + j]!,
    });
  });
}

// With as many actual calls as expected ones, every actual call is paired, so the "keys sent"
// total is the same for every assignment (when every expected call checks its arguments), and
// pairing in order minimizes the total distance.
// If each in-order pair also matches every expected key (the most any pair can), the in-order
// pairing is optimal: no need to score every combination.
function inOrderFullMatch(
  goldIndexes: number[],
  actualIndexes: number[],
  expected: ToolCall[],
  actual: ToolCall[],
  options: PairingOptions,
  matched: Int32Array,
): CallPair[] | undefined {
  // Every diagonal entry is computed (and kept in `matched` for the general case).
  const pairs: CallPair[] = [];
  const n = goldIndexes.length;
  let full = true;
  for (let k = 0; k < n; k++) {
    const gold = expected[goldIndexes[k]!]!;
    const call = actual[actualIndexes[k]!]!;
    const matchedKeys = matchedKeyCount(gold, call, options);
    matched[k * n + k] = matchedKeys;
    // An unchecked expected call makes "keys sent" depend on the assignment: no shortcut.
    if (!argsChecked(gold) || matchedKeys !== keyCount(gold.args)) full = false;
    pairs.push({ expected: goldIndexes[k]!, actual: actualIndexes[k]!, matchedKeys });
  }
  return full ? pairs : undefined;
}

// When every row's cheapest column is different, picking them is optimal: no assignment can
// cost less than the sum of the row minima. This exact shortcut covers the common case (each
// call has one clearly best partner) without running the O(n³) algorithm.
function rowMinimaAssignment(
  rows: number,
  columns: number,
  cost: Float64Array,
): number[] | undefined {
  const taken = scratch.bytes(1, columns);
  const assignment = new Array<number>(rows);
  for (let r = 0; r < rows; r++) {
    let best = 0;
    let bestCost = Infinity;
    let tie = false;
    for (let c = 0; c < columns; c++) {
      const value = cost[r * columns + c]!;
      if (value < bestCost) {
        bestCost = value;
        best = c;
        tie = false;
      } else if (value === bestCost) tie = true;
    }
    // A tie would make the choice depend on scan order; leave those to the full algorithm.
    if (tie || taken[best]) return undefined;
    taken[best] = 1;
    assignment[r] = best;
  }
  return assignment;
}
