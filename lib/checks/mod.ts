/**
 * The `checks` part of toolscore (see ARCHITECTURE.md).
 *
 * @module
 */

export * from "./evidence.ts";
export * from "./forbidden.ts";
export * from "./honesty.ts";
export * from "./security.ts";
export * from "./side_effects.ts";
