/**
 * Confidence intervals for pass rates.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";

/**
 * The normal quantile of a two-sided 95% interval.
 *
 * @example Usage
 * ```ts
 * import { wilsonInterval } from "@toolscore/cli";
 * import { Z_95 } from "./wilson.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(wilsonInterval(7, 10, { z: Z_95 }), wilsonInterval(7, 10));
 * ```
 */
export const Z_95 = 1.959963984540054;

/** Options for {@linkcode wilsonInterval}. */
export interface WilsonIntervalOptions {
  /**
   * Normal quantile of the interval.
   * @default {1.959963984540054} (95%)
   */
  z?: number;
}

/**
 * The former name of {@linkcode WilsonIntervalOptions}.
 *
 * @deprecated Use {@linkcode WilsonIntervalOptions}; this alias goes in the next release.
 */
export type WilsonOptions = WilsonIntervalOptions;

/**
 * Check that a count is a non-negative integer.
 *
 * @param value The count.
 * @param name Its name, for the error.
 * @returns The count.
 * @throws {InputError} When it is not a non-negative integer.
 *
 * @example Usage
 * ```ts
 * import { checkRunCount } from "./wilson.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(checkRunCount(3, "n"), 3);
 * assert.throws(() => checkRunCount(-1, "n"), /n: expected a non-negative integer/);
 * ```
 */
export function checkRunCount(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InputError(`expected a non-negative integer, got ${value}`, name);
  }
  return value;
}

/**
 * The Wilson score interval of a proportion, clamped to [0, 1].
 *
 * @param successes Number of passing runs.
 * @param n Number of runs; 0 gives `[0, 1]` (nothing is known).
 * @param options Interval options.
 * @returns The lower and upper bounds.
 * @throws {InputError} When the counts are not integers with `0 <= successes <= n`.
 *
 * @example Usage
 * ```ts
 * import { wilsonInterval } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const [low, high] = wilsonInterval(7, 10);
 * assert.ok(Math.abs(low - 0.3968) < 1e-4 && Math.abs(high - 0.8922) < 1e-4);
 * assert.deepEqual(wilsonInterval(0, 0), [0, 1]);
 * ```
 */
export function wilsonInterval(
  successes: number,
  n: number,
  options: WilsonIntervalOptions = {},
): [number, number] {
  checkRunCount(successes, "successes");
  checkRunCount(n, "n");
  if (successes > n) throw new InputError(`successes ${successes} exceed n ${n}`, "successes");
  const z = options.z ?? Z_95;
  if (!Number.isFinite(z) || z <= 0) throw new InputError(`expected a positive z, got ${z}`, "z");
  if (n === 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At p = 0 or 1 the bound is exactly 0 or 1; rounding must not move it.
  const low = successes === 0 ? 0 : Math.max(0, center - half);
  const high = successes === n ? 1 : Math.min(1, center + half);
  return [low, high];
}
