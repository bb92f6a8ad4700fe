/**
 * The `benchmarks` part of toolscore (see ARCHITECTURE.md): public
 * benchmarks' task files imported as contracts (BFCL, τ²-bench), so that
 * their items score with the same contracts, checks and statistics as a
 * team's own tasks.
 *
 * @module
 */

export * from "./bfcl_import.ts";
export * from "./tau2_contracts.ts";
