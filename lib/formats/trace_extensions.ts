/**
 * The file extensions the trace readers claim, in one table: what the folder
 * walk (`trace_folder.ts`) reads from a directory (issue 32), derived from
 * the detector registry's rows (`registry.ts`, issue 34): a new reader adds
 * its extensions in its row there.
 *
 * @module
 */

import { TRACE_FILE_EXTENSIONS } from "./registry.ts";

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

const SNIFFED = new Set([".txt", ".log"]);

/**
 * The extensions a folder walk reads, derived from the detector registry's
 * rows (issue 34: a new shape's row adds its extensions here): `.json`,
 * `.jsonl`, `.ndjson`, `.sse`, `.vcr`, `.yaml` and `.yml` always, `.txt` and
 * `.log` when they start like a trace. A file of these that no reader
 * recognizes and that holds no tool-call content is skipped with the walk's
 * note (a YAML config), never read as zero calls.
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
export const TRACE_EXTENSIONS: readonly TraceExtension[] = Object.freeze(
  TRACE_FILE_EXTENSIONS.map((extension) =>
    Object.freeze({ extension, sniffed: SNIFFED.has(extension) })
  ),
);
