/**
 * Contracts v2: required calls with alternatives, optional calls, forbidden
 * rules, weights and a pass mark; reading them, expanding the alternatives,
 * and scoring a trace against the best combination.
 *
 * @module
 */

export * from "./matching.ts";
export * from "./model.ts";
export * from "./parse.ts";
export * from "./split.ts";
export * from "./init.ts";
export * from "./schema.ts";
export * from "./pass_rule.ts";
