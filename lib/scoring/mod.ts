/**
 * The `scoring` part of toolscore (see ARCHITECTURE.md).
 *
 * @module
 */

export * from "./call_match.ts";
export * from "./calls.ts";
export * from "./hungarian.ts";
export * from "./malformed.ts";
export * from "./matcher.ts";
export * from "./matcher_classes.ts";
export * from "./matcher_json.ts";
export * from "./matchers.ts";
export * from "./metrics.ts";
export * from "./pairing.ts";
export * from "./schema_check.ts";
export * from "./score.ts";
export * from "./type_matcher.ts";
export * from "./value_compare.ts";
