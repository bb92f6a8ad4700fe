/**
 * The `base` part of toolscore (see ARCHITECTURE.md).
 *
 * @module
 */

export * from "./atomic_write.ts";
export * from "./canonical.ts";
export * from "./errors.ts";
export * from "./json_limits.ts";
export * from "./json_pointer.ts";
export * from "./jsonl_lines.ts";
export * from "./load.ts";
export * from "./path_exists.ts";
export * from "./lossless_json.ts";
export * from "./schema_problems.ts";
export * from "./terminal_safe.ts";
export * from "./user_regex.ts";
export * from "./version.ts";
