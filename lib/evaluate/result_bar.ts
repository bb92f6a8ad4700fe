/**
 * The pass bar that goes with an evaluation, for the library's one rule
 * (issue 20): the bar given by the caller, else the contract's `min_score`,
 * else 0.9 — and a receipt keeps its own bar unless one is given.
 * `evaluateContract` records its contract's bar here; a gold file has none.
 *
 * @module
 */

import type { EvaluationResult } from "./evaluate.ts";

/** The bar when neither the caller nor a contract gives one. */
export const DEFAULT_MIN_SCORE = 0.9;

const BARS = new WeakMap<EvaluationResult, number>();

/**
 * Record the contract bar of an evaluation (called by `evaluateContract`).
 *
 * @param result The evaluation.
 * @param minScore The contract's `min_score`.
 * @returns The same evaluation.
 */
export function withContractBar(result: EvaluationResult, minScore: number): EvaluationResult {
  BARS.set(result, minScore);
  return result;
}

/**
 * The bar an evaluation is measured against: `given`, else its contract's
 * `min_score`, else {@linkcode DEFAULT_MIN_SCORE}.
 *
 * @param result The evaluation.
 * @param given The caller's bar, if any.
 * @returns The bar.
 *
 * @example Usage
 * ```ts
 * import { evaluate, evaluateContract } from "@toolscore/cli";
 * import { passBarOf } from "./result_bar.ts";
 * import assert from "node:assert/strict";
 *
 * const contract = { required: [{ tool: "a" }], min_score: 0.5 };
 * assert.equal(passBarOf(evaluateContract(contract, [{ tool: "a" }])), 0.5);
 * assert.equal(passBarOf(evaluateContract(contract, [{ tool: "a" }]), 0.7), 0.7);
 * assert.equal(passBarOf(evaluate([{ tool: "a" }], [{ tool: "a" }])), 0.9);
 * ```
 */
export function passBarOf(result: EvaluationResult, given?: number): number {
  return given ?? BARS.get(result) ?? DEFAULT_MIN_SCORE;
}
