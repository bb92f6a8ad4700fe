/**
 * The `agent` part of toolscore (see ARCHITECTURE.md).
 *
 * @module
 */

export * from "./prices.ts";
export * from "./spec.ts";
