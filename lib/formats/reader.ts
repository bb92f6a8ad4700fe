/**
 * The shape of a trace reader: one per raw format, in a table the detector
 * walks in order.
 *
 * @module
 */

import type { FormatName, Trace } from "../calls.ts";

/**
 * A reader of one raw trace format. `READERS` lists them in
 * detection order; the first whose `claims` accepts a document reads it.
 *
 * @example Usage
 * ```ts
 * import { READERS } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const doc = { format: "toolscore", calls: [{ tool: "a" }] };
 * const reader = READERS.find((r) => r.claims(doc));
 * assert.equal(reader?.name, "toolscore");
 * assert.equal(reader?.read(doc, "trace.json").calls.length, 1);
 * ```
 */
export interface FormatReader {
  /** The format name. */
  name: FormatName;
  /** Whether the whole document looks like this format. */
  claims(value: unknown): boolean;
  /**
   * Read the document.
   *
   * @param value The parsed document.
   * @param source The file name, for errors.
   */
  read(value: unknown, source: string): Trace;
}
