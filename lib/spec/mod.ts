/**
 * The `spec` part of toolscore (see ARCHITECTURE.md).
 *
 * @module
 */

export * from "./prices.ts";
export * from "./agent_spec.ts";
