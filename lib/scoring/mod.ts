/**
 * The `scoring` part of toolscore (see ARCHITECTURE.md).
 *
 * @module
 */

export * from "./call_match.ts";
export * from "./calls.ts";
export * from "./hungarian.ts";
export * from "./matchers.ts";
export * from "./metrics.ts";
export * from "./pairing.ts";
export * from "./schema_check.ts";
export * from "./score.ts";
