/**
 * Every raw trace format, read through one detector.
 *
 * @module
 */

export * from "./detect.ts";
export * from "./reader.ts";
export { parseArgumentText, usageFromJson } from "./_shared.ts";
export * from "./toolscore.ts";
export * from "./openai.ts";
export * from "./openai_responses.ts";
export * from "./anthropic.ts";
export * from "./gemini.ts";
export * from "./mcp.ts";
export * from "./langchain.ts";
export * from "./otel.ts";
export * from "./custom.ts";
export * from "./format_table.ts";
