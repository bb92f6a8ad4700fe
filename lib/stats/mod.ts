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
export * from "./compare.ts";
export * from "./select.ts";
export * from "./protocol.ts";
export * from "./traces.ts";
