/**
 * Statistics over repeated runs: Wilson intervals, Fisher's exact test,
 * pass^k, comparisons, selection and decision protocols.
 *
 * @module
 */

export * from "./wilson.ts";
export * from "./fisher.ts";
export * from "./pass_hat_k.ts";
export * from "./runs.ts";
export * from "./variant_stats.ts";
export * from "./comparison.ts";
export * from "./format.ts";
export * from "./compare_pair.ts";
export * from "./compare.ts";
export * from "./objective.ts";
export * from "./select.ts";
export * from "./protocol.ts";
export * from "./protocol_result.ts";
export * from "./evaluate_protocol.ts";
export * from "./traces.ts";
export * from "./mcnemar.ts";
export * from "./sign_flip.ts";
export * from "./clustered.ts";
export * from "./runs_needed.ts";
export * from "./adjust.ts";
export * from "./difference_interval.ts";
