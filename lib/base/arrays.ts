/**
 * List helpers that take any number of items (issue 42). Spreading a list
 * into a call's arguments (`Math.max(...list)`, `out.push(...batch)`) passes
 * one argument per item, and past about 125,000 items V8 throws "Maximum
 * call stack size exceeded": `eval` over 130,000 traces exited 70. These
 * loop instead. `tests/no_spread_test.ts` fails on a new spread into a call
 * in `lib/`.
 *
 * @module
 */

/**
 * Append every item to `target`, in order (`target.push(...items)` without
 * the argument limit).
 *
 * @param target The list to grow.
 * @param items The items.
 * @returns `target`.
 *
 * @example Usage
 * ```ts
 * import { pushAll } from "./arrays.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(pushAll([1], [2, 3]), [1, 2, 3]);
 * assert.equal(pushAll([], new Array(300_000).fill(0)).length, 300_000);
 * ```
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/**
 * The largest number, or `empty` when there is none
 * (`Math.max(empty, ...values)` without the argument limit).
 *
 * @param values The numbers.
 * @param empty What an empty list gives (and a floor for the others).
 * @returns The largest.
 *
 * @example Usage
 * ```ts
 * import { maxOf } from "./arrays.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(maxOf([3, 9, 4]), 9);
 * assert.equal(maxOf([], 5), 5);
 * assert.equal(maxOf([1, 2], 5), 5);
 * ```
 */
export function maxOf(values: Iterable<number>, empty = -Infinity): number {
  let max = empty;
  for (const value of values) if (value > max || Number.isNaN(value)) max = value;
  return max;
}

/**
 * The smallest number, or `empty` when there is none
 * (`Math.min(empty, ...values)` without the argument limit).
 *
 * @param values The numbers.
 * @param empty What an empty list gives (and a ceiling for the others).
 * @returns The smallest.
 *
 * @example Usage
 * ```ts
 * import { minOf } from "./arrays.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(minOf([3, 9, 4]), 3);
 * assert.equal(minOf([]), Infinity);
 * ```
 */
export function minOf(values: Iterable<number>, empty = Infinity): number {
  let min = empty;
  for (const value of values) if (value < min || Number.isNaN(value)) min = value;
  return min;
}
