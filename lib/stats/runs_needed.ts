/**
 * How many runs per variant a comparison needs before it is run: Cohen's h
 * and the two-sided normal power equation, solved exactly for n.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { normalCdf, normalQuantile } from "./_normal.ts";

/** Options for {@linkcode runsNeeded}. */
export interface RunsNeededOptions {
  /**
   * Two-sided significance level.
   * @default {0.05}
   */
  alpha?: number;
  /**
   * The chance of detecting the difference when it is real (alpha < power < 1).
   * @default {0.8}
   */
  power?: number;
  /**
   * Multiply the independent-runs answer by this (a variant's design effect
   * from {@linkcode clusteredInterval}) before rounding up.
   * @default {1}
   */
  designEffect?: number;
}

function checkRate(value: number, name: string): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new InputError(`expected a pass rate from 0 to 1, got ${value}`, name);
  }
  return value;
}

/**
 * Cohen's effect size h for two proportions, `|2·asin√p1 − 2·asin√p2|`.
 *
 * Source: Cohen (1988), Statistical Power Analysis for the Behavioral
 * Sciences, 2nd ed., ch. 6 (statsmodels' `proportion_effectsize`, unsigned).
 *
 * @param p1 One pass rate.
 * @param p2 The other.
 * @returns h ≥ 0.
 * @throws {InputError} When a rate is outside [0, 1].
 *
 * @example Usage
 * ```ts
 * import { cohensH } from "./runs_needed.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(Math.abs(cohensH(0.5, 0.5) - 0) < 1e-15);
 * assert.ok(Math.abs(cohensH(0, 1) - Math.PI) < 1e-15);
 * ```
 */
export function cohensH(p1: number, p2: number): number {
  checkRate(p1, "p1");
  checkRate(p2, "p2");
  return Math.abs(2 * Math.asin(Math.sqrt(p1)) - 2 * Math.asin(Math.sqrt(p2)));
}

/**
 * The runs per variant, not yet rounded, that give `power` (both tails):
 * the n solving `power = Φ(h·√(n/2) − z) + Φ(−h·√(n/2) − z)`, z = z₁₋α/₂.
 * The right side grows with a = h·√(n/2) (its derivative φ(a−z) − φ(a+z) is
 * positive for a > 0), so bisection on a finds the root to the last bit.
 */
function exactRuns(h: number, alpha: number, power: number): number {
  const z = -normalQuantile(alpha / 2);
  const excess = (a: number) => normalCdf(a - z) + normalCdf(-a - z) - power;
  // The one-tailed solution undershoots by the second tail's mass only; grow until above.
  let high = Math.max(z + normalQuantile(power), 1e-3);
  while (excess(high) < 0) high *= 2;
  let low = 0;
  for (let i = 0; i < 2000 && high - low > 0; i++) {
    const mid = (low + high) / 2;
    if (mid === low || mid === high) break;
    if (excess(mid) < 0) low = mid;
    else high = mid;
  }
  return 2 * (high / h) ** 2;
}

/**
 * Runs per variant needed to detect pass rate `p1` against `p2` with a
 * two-sided test at `alpha` with probability `power`: Cohen's h, and the
 * normal power equation solved exactly for n (both tails, not the usual
 * one-tail shortcut), `power = Φ(h·√(n/2) − z₁₋α/₂) + Φ(−h·√(n/2) − z₁₋α/₂)`,
 * rounded up. With a design effect (runs clustered by task, from
 * {@linkcode clusteredInterval}): `ceil(n_unrounded × designEffect)`.
 *
 * Source: Cohen (1988), Statistical Power Analysis for the Behavioral
 * Sciences, 2nd ed., ch. 6 (h and the normal approximation); the equation is
 * statsmodels' `NormalIndPower().solve_power(effect_size=h, alpha=alpha,
 * power=power, ratio=1, alternative="two-sided")`, whose root this matches;
 * the design-effect inflation is Donner & Klar (2000), Design and Analysis
 * of Cluster Randomization Trials (sample size inflated by the design effect).
 *
 * @param p1 One pass rate (the current one, say).
 * @param p2 The pass rate to tell it from.
 * @param options `alpha`, `power`, `designEffect`.
 * @returns Runs per variant (an integer ≥ 1).
 * @throws {InputError} When `p1 = p2`, a rate is outside [0, 1], or an option is out of range.
 *
 * @example Usage
 * ```ts
 * import { runsNeeded } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(runsNeeded(0.7, 0.8), 292); // statsmodels: 291.69
 * assert.equal(runsNeeded(0.7, 0.8, { designEffect: 2 }), 584);
 * assert.throws(() => runsNeeded(0.7, 0.7), /no difference to detect/);
 * ```
 */
export function runsNeeded(p1: number, p2: number, options: RunsNeededOptions = {}): number {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  const designEffect = options.designEffect ?? 1;
  const h = cohensH(p1, p2);
  if (p1 === p2) {
    throw new InputError(`p1 = p2 = ${p1}: no difference to detect; give two different rates`);
  }
  if (!(alpha > 0 && alpha < 1)) {
    throw new InputError(`expected a number between 0 and 1 (exclusive), got ${alpha}`, "alpha");
  }
  if (!(power > alpha && power < 1)) {
    throw new InputError(
      `expected a number between alpha = ${alpha} and 1 (exclusive), got ${power}`,
      "power",
    );
  }
  if (!(Number.isFinite(designEffect) && designEffect > 0)) {
    throw new InputError(`expected a positive number, got ${designEffect}`, "design_effect");
  }
  const runs = Math.ceil(exactRuns(h, alpha, power) * designEffect);
  if (!Number.isSafeInteger(runs)) {
    throw new InputError(
      `the difference ${p1} vs ${p2} is too small to plan for (more than 2^53 runs)`,
    );
  }
  return Math.max(1, runs);
}
