/**
 * The file extensions the trace readers claim, in one table: what the folder
 * walk (`trace_folder.ts`) reads from a directory. A new reader adds its
 * extension here (issue 32); the detector registry may derive this table
 * from its sniffers.
 *
 * @module
 */

/** One extension a trace reader claims. */
export interface TraceExtension {
  /** The extension, lower case, with its dot (`.json`). */
  extension: string;
  /**
   * Whether a file of this extension is read only when its start looks like
   * a trace (a JSON value, SSE fields or MCP client log lines): a
   * `README.txt` beside the traces is not one.
   */
  sniffed: boolean;
}

/**
 * The extensions a folder walk reads: `.json`, `.jsonl` and `.sse` always,
 * `.txt` and `.log` when they start like a trace.
 *
 * @example Usage
 * ```ts
 * import { TRACE_EXTENSIONS } from "./trace_extensions.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(TRACE_EXTENSIONS.some((e) => e.extension === ".jsonl" && !e.sniffed));
 * assert.ok(TRACE_EXTENSIONS.some((e) => e.extension === ".log" && e.sniffed));
 * ```
 */
export const TRACE_EXTENSIONS: readonly TraceExtension[] = Object.freeze([
  { extension: ".json", sniffed: false },
  { extension: ".jsonl", sniffed: false },
  { extension: ".sse", sniffed: false },
  { extension: ".txt", sniffed: true },
  { extension: ".log", sniffed: true },
]);
