/**
 * The Hungarian algorithm (Kuhn–Munkres with potentials, O(n²·m)) for a
 * minimum-cost assignment of every row to a distinct column, rows ≤ columns.
 *
 * Costs are exact integers: callers fold several criteria into one number
 * and must keep every total below 2^53 (see {@linkcode MAX_EXACT_COST}).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";

/**
 * The most expected × actual call pairs of one tool that pairing scores
 * exactly: 1,000,000 (1,000 × 1,000, or 10 × 100,000). The matched-key
 * matrix has one cell per pair, and the assignment takes O(min² · max) steps
 * (about 0.6 s at 1,000 × 1,000); a larger group is refused before anything is
 * allocated.
 */
export const MAX_PAIRING_CELLS = 1_000_000;

/**
 * The error for a tool with more expected × actual calls than
 * {@linkcode MAX_PAIRING_CELLS}, or `undefined` when the group is within it.
 *
 * @param tool The tool.
 * @param expected Its expected calls.
 * @param actual Its actual calls.
 * @returns The error to throw, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { pairingSizeError } from "./hungarian.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pairingSizeError("a", 1_000, 1_000), undefined);
 * assert.match(pairingSizeError("a", 1_000, 100_000)!.message, /^tool a: 1000 expected/);
 * ```
 */
export function pairingSizeError(
  tool: string,
  expected: number,
  actual: number,
): InputError | undefined {
  if (expected * actual <= MAX_PAIRING_CELLS) return undefined;
  return new InputError(
    `${expected} expected and ${actual} actual calls of one tool make ${expected * actual} ` +
      `pairs, over the ${MAX_PAIRING_CELLS} toolscore pairs exactly; score the trace in ` +
      `smaller runs (one task per trace), or expect fewer calls of this tool`,
    `tool ${tool}`,
  );
}

/** Totals up to this stay exact in a float64. */
export const MAX_EXACT_COST: number = Number.MAX_SAFE_INTEGER;

/**
 * Assign each row to a distinct column with the smallest total cost.
 *
 * @param rows Number of rows (≤ `columns`).
 * @param columns Number of columns.
 * @param cost The cost of row `i` in column `j`.
 * @returns For each row, its column.
 *
 * @example Usage
 * ```ts
 * import { hungarian } from "./hungarian.ts";
 * import assert from "node:assert/strict";
 *
 * const costs = [[4, 1, 3], [2, 0, 5], [3, 2, 2]];
 * assert.deepEqual(hungarian(3, 3, (i, j) => costs[i]![j]!), [1, 0, 2]);
 * ```
 */
export function hungarian(
  rows: number,
  columns: number,
  cost: (row: number, column: number) => number,
): number[] {
  if (rows > columns) throw new RangeError("hungarian() needs rows <= columns");
  const n = rows;
  const m = columns;
  const matrix = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) matrix[i * m + j] = cost(i, j);
  // 1-based arrays as in the classic formulation; index 0 is the virtual column.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1); // row assigned to column j (1-based), 0 = free
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      const rowBase = (i0 - 1) * m;
      const ui0 = u[i0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const current = matrix[rowBase + j - 1]! - ui0 - v[j]!;
        if (current < minv[j]!) {
          minv[j] = current;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else {
          minv[j] = minv[j]! - delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const assignment = new Array<number>(n).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j]! > 0) assignment[p[j]! - 1] = j - 1;
  return assignment;
}

/**
 * The assignment that picks every row's cheapest column, when those columns
 * are all different and no row has a tie: then it is optimal, since no
 * assignment costs less than the sum of the row minima. This exact shortcut
 * covers the common case (each call has one clearly best partner) without
 * the O(n³) algorithm.
 *
 * @param rows The number of rows.
 * @param columns The number of columns (at least `rows`).
 * @param cost `cost[r * columns + c]`: the cost of pairing row r with column c.
 * @returns Each row's column, or `undefined` when the shortcut does not apply.
 *
 * @example Usage
 * ```ts
 * import { rowMinimaAssignment } from "./hungarian.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(rowMinimaAssignment(2, 2, [5, 1, 0, 9]), [1, 0]);
 * assert.equal(rowMinimaAssignment(2, 2, [1, 5, 0, 9]), undefined); // both want column 0
 * ```
 */
export function rowMinimaAssignment(
  rows: number,
  columns: number,
  cost: readonly number[],
): number[] | undefined {
  const taken: boolean[] = new Array(columns).fill(false);
  const assignment: number[] = new Array(rows);
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
    taken[best] = true;
    assignment[r] = best;
  }
  return assignment;
}

/**
 * Whether each diagonal cell of an n × n matrix is larger than every other
 * cell of its row: then, for a cost that a larger cell lowers by more than
 * anything else can raise it, each row's cheapest column is its own, and
 * {@linkcode rowMinimaAssignment} would pair row k with column k.
 *
 * @param matrix `matrix[r * n + c]`, row-major.
 * @param n The number of rows and columns.
 * @returns `true` when every row's diagonal cell is its strict maximum.
 *
 * @example Usage
 * ```ts
 * import { diagonalDominates } from "./hungarian.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(diagonalDominates([2, 1, 0, 3], 2), true);
 * assert.equal(diagonalDominates([2, 2, 0, 3], 2), false); // a tie in row 0
 * ```
 */
export function diagonalDominates(matrix: readonly number[], n: number): boolean {
  for (let i = 0; i < n; i++) {
    const row = i * n;
    const own = matrix[row + i]!;
    for (let j = 0; j < n; j++) if (j !== i && matrix[row + j]! >= own) return false;
  }
  return true;
}
