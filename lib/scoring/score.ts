/**
 * The composite score and the grade.
 *
 * `score = Σ w_m · v_m` over `selection_accuracy` (0.4), `argument_f1` (0.3),
 * `sequence_accuracy` (0.2), `redundant_rate` (0.1, applied to
 * 1 − redundant_rate) and `required_call_recall` (0; a `null` recall counts
 * as 1). User or contract weights are merged over the defaults and
 * renormalized to sum to 1. Every comparison with a band allows 1e-9, and
 * scores are rounded to 12 decimals to hide float noise.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";

/** The default weights of the composite score. */
export const DEFAULT_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  selection_accuracy: 0.4,
  argument_f1: 0.3,
  sequence_accuracy: 0.2,
  redundant_rate: 0.1,
  required_call_recall: 0,
});

/** The grades, best first. */
export type Grade = "A" | "B" | "C" | "D" | "F";

/** Floating-point slack in every comparison of a score with a bar. */
export const SCORE_EPSILON = 1e-9;

/**
 * Merge weights over the defaults and renormalize them to sum to 1.
 *
 * @param weights User or contract weights (partial).
 * @param where Where the weights came from, for errors (`--weight`, `contract.json: weights`).
 * @returns The normalized weights, every key present.
 * @throws {InputError} On an unknown key, a negative or non-finite value, or a zero sum.
 *
 * @example Usage
 * ```ts
 * import { normalizeWeights } from "./score.ts";
 * import assert from "node:assert/strict";
 *
 * const w = normalizeWeights({ required_call_recall: 1 });
 * assert.equal(w.required_call_recall, 0.5);
 * assert.equal(w.selection_accuracy, 0.2);
 * ```
 */
export function normalizeWeights(
  weights: Record<string, number> = {},
  where = "weights",
): Record<string, number> {
  // The defaults need no work (a fresh copy, so callers may keep it).
  if (Object.keys(weights).length === 0) return { ...DEFAULT_WEIGHTS };
  const merged: Record<string, number> = { ...DEFAULT_WEIGHTS };
  for (const [key, value] of Object.entries(weights)) {
    if (!Object.hasOwn(DEFAULT_WEIGHTS, key)) {
      throw new InputError(
        `unknown weight ${key}; use one of ${Object.keys(DEFAULT_WEIGHTS).join(", ")}`,
        where,
      );
    }
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new InputError(`weight ${key} must be a finite number >= 0, got ${value}`, where);
    }
    merged[key] = value;
  }
  const sum = Object.values(merged).reduce((a, b) => a + b, 0);
  if (sum <= 0) throw new InputError("weights sum to 0; give at least one a positive value", where);
  // Weights that already sum to 1 (the defaults) are kept as written, not re-divided.
  if (Math.abs(sum - 1) > 1e-12) {
    for (const key of Object.keys(merged)) merged[key] = merged[key]! / sum;
  }
  return merged;
}

/** The metric values the composite score reads. */
export interface ScoreInputs {
  /** Selection accuracy. */
  selection_accuracy: number;
  /** Argument F1. */
  argument_f1: number;
  /** Sequence accuracy. */
  sequence_accuracy: number;
  /** Redundant rate (the score uses 1 − it). */
  redundant_rate: number;
  /** Required-call recall; `null` counts as 1. */
  required_call_recall: number | null;
}

/**
 * The composite score of metrics under normalized weights.
 *
 * @param metrics The metric values.
 * @param weights Normalized weights (see {@linkcode normalizeWeights}).
 * @returns The score in [0, 1].
 *
 * @example Usage
 * ```ts
 * import { compositeScore, normalizeWeights } from "./score.ts";
 * import assert from "node:assert/strict";
 *
 * const score = compositeScore({
 *   selection_accuracy: 1, argument_f1: 0.5, sequence_accuracy: 1, redundant_rate: 0,
 *   required_call_recall: null,
 * }, normalizeWeights());
 * assert.ok(Math.abs(score - 0.85) < 1e-12);
 * ```
 */
export function compositeScore(metrics: ScoreInputs, weights: Record<string, number>): number {
  const score = (weights.selection_accuracy ?? 0) * metrics.selection_accuracy +
    (weights.argument_f1 ?? 0) * metrics.argument_f1 +
    (weights.sequence_accuracy ?? 0) * metrics.sequence_accuracy +
    (weights.redundant_rate ?? 0) * (1 - metrics.redundant_rate) +
    (weights.required_call_recall ?? 0) * (metrics.required_call_recall ?? 1);
  // Rounded to 12 decimals so float noise (0.4 + 0.3 + 0.2 + 0.1 = 0.9999999999999999) does
  // not show as a score below 1; the change is far below the 1e-9 every comparison allows.
  return Math.min(1, Math.max(0, Math.round(score * 1e12) / 1e12));
}

/**
 * The grade of a score: A ≥ 0.9, B ≥ 0.8, C ≥ 0.7, D ≥ 0.6, else F (1e-9 slack).
 *
 * @param score A score in [0, 1].
 * @returns The grade.
 *
 * @example Usage
 * ```ts
 * import { gradeOf } from "./score.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(gradeOf(0.7999999999999999), "B");
 * assert.equal(gradeOf(0.1), "F");
 * ```
 */
export function gradeOf(score: number): Grade {
  if (score >= 0.9 - SCORE_EPSILON) return "A";
  if (score >= 0.8 - SCORE_EPSILON) return "B";
  if (score >= 0.7 - SCORE_EPSILON) return "C";
  if (score >= 0.6 - SCORE_EPSILON) return "D";
  return "F";
}

/** The pass mark each grade letter stands for, for `--fail-under B`. */
export const GRADE_BARS: Readonly<Record<Grade, number>> = Object.freeze({
  A: 0.9,
  B: 0.8,
  C: 0.7,
  D: 0.6,
  F: 0,
});

/**
 * Whether a score reaches a bar (with 1e-9 slack).
 *
 * @param score The score.
 * @param bar The pass mark.
 * @returns `true` when `score >= bar - 1e-9`.
 *
 * @example Usage
 * ```ts
 * import { meetsBar } from "./score.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(meetsBar(0.8999999999, 0.9), true);
 * ```
 */
export function meetsBar(score: number, bar: number): boolean {
  return score >= bar - SCORE_EPSILON;
}
