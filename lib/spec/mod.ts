/**
 * The `spec` part of toolscore (see ARCHITECTURE.md).
 *
 * @module
 */

export * from "./agent_spec.ts";
export * from "./arm_keys.ts";
export * from "./prices.ts";
