/**
 * Reports: the console report of `eval` and of the statistics commands, and
 * the file reports (Markdown, JUnit XML, HTML) with the escaping they share.
 *
 * @module
 */

export * from "./color.ts";
export * from "./console.ts";
export * from "./escape.ts";
export * from "./trace_record.ts";
export * from "./markdown_budget.ts";
export * from "./markdown.ts";
export * from "./markdown_stats.ts";
export * from "./junit.ts";
export * from "./stats_console.ts";
export * from "./html/mod.ts";
export * from "./result_blocks.ts";
