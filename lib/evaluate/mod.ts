/**
 * The `evaluate` part of toolscore (see ARCHITECTURE.md).
 *
 * @module
 */

export * from "./assert_tools.ts";
export * from "./combination_score.ts";
export * from "./evaluate.ts";
export * from "./evaluate_contract.ts";
export * from "./expected.ts";
export * from "./gold.ts";
export * from "./issues.ts";
export * from "./result_bar.ts";
export * from "./pass_verdict.ts";
export * from "./contract_folder.ts";
