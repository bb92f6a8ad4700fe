/**
 * The HTML reports: `eval`, `compare` and `decide`, each one self-contained page.
 *
 * @module
 */

export * from "./page.ts";
export * from "./eval.ts";
export * from "./eval_trace.ts";
export * from "./compare.ts";
export * from "./decide.ts";
