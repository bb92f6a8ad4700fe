/**
 * pass^k: the chance that k runs of a task all pass.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { checkRunCount } from "./wilson.ts";

/**
 * Unbiased estimate of the probability that k runs of a task all pass:
 * `C(passes, k) / C(n, k)`, computed as a product of ratios so it never
 * overflows, whatever n.
 *
 * @param passes Passing runs of the task.
 * @param n Runs of the task.
 * @param k How many runs must all pass (k = 0 gives 1).
 * @returns The estimate in [0, 1], or `null` when n < k (not enough runs).
 * @throws {InputError} When the counts are not integers with `0 <= passes <= n`.
 *
 * @example Usage
 * ```ts
 * import { passHatK } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.ok(Math.abs(passHatK(7, 10, 3)! - 35 / 120) < 1e-12);
 * assert.equal(passHatK(2, 2, 3), null);
 * ```
 */
export function passHatK(passes: number, n: number, k: number): number | null {
  checkRunCount(passes, "passes");
  checkRunCount(n, "n");
  checkRunCount(k, "k");
  if (passes > n) throw new InputError(`passes ${passes} exceed n ${n}`, "passes");
  if (n < k) return null;
  if (passes < k) return 0;
  let product = 1;
  for (let i = 0; i < k; i++) product *= (passes - i) / (n - i);
  return product;
}
