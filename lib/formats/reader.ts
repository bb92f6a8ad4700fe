/**
 * The shape of a trace reader: one per raw format, in a table the detector
 * walks in order.
 *
 * @module
 */

import type { FormatName, Trace } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";

/**
 * A reader of one raw trace format. `READERS` (`registry.ts`) lists them in
 * detection order; the first whose `claims` accepts a document reads it.
 *
 * @example Usage
 * ```ts
 * import { READERS } from "./registry.ts";
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
  /**
   * Read the document when this reader claims it, else `undefined`: what
   * `claims` then `read` do, finding the format's structure once (detection
   * uses it when given).
   *
   * @param value The parsed document.
   * @param source The file name, for errors.
   */
  readIfClaimed?(value: unknown, source: string): Trace | undefined;
}

/**
 * A reader built from the three parts every provider format has: a function
 * that finds the format's structure in a document (or `undefined` when it is
 * not there), the error for a document forced into the format that does not
 * have it, and the reading of the structure found. `claims` is "the
 * structure is there"; `read` finds it again and reads it.
 *
 * @param name The format name.
 * @param find Finds the format's structure in a parsed document.
 * @param notFound The message when `--format` forces a document without it.
 * @param read Reads the structure found (with the file name and the whole document).
 * @returns The reader.
 *
 * @example Usage
 * ```ts
 * import { documentReader } from "./reader.ts";
 * import assert from "node:assert/strict";
 *
 * const reader = documentReader(
 *   "custom",
 *   (value) => Array.isArray(value) ? value : undefined,
 *   "expected a list",
 *   (list) => ({ calls: list.map((tool) => ({ tool: String(tool) })), format: "custom" }),
 * );
 * assert.equal(reader.claims(["a"]), true);
 * assert.equal(reader.read(["a"], "t.json").calls[0]?.tool, "a");
 * assert.throws(() => reader.read({}, "t.json"), /t\.json: expected a list/);
 * assert.equal(reader.readIfClaimed?.({}, "t.json"), undefined);
 * assert.equal(reader.readIfClaimed?.(["b"], "t.json")?.calls[0]?.tool, "b");
 * ```
 */
export function documentReader<T>(
  name: FormatName,
  find: (value: unknown) => T | undefined,
  notFound: string,
  read: (found: T, source: string, value: unknown) => Trace,
): FormatReader {
  return {
    name,
    claims: (value) => find(value) !== undefined,
    read(value, source) {
      const found = find(value);
      if (found === undefined) throw new InputError(notFound, source);
      return read(found, source, value);
    },
    readIfClaimed(value, source) {
      const found = find(value);
      return found === undefined ? undefined : read(found, source, value);
    },
  };
}

/**
 * Read a document with a reader when it claims it: its `readIfClaimed`, or
 * `claims` then `read` for a reader without one.
 *
 * @param reader The reader.
 * @param value The parsed document.
 * @param source The file name, for errors.
 * @returns The trace, or `undefined` when the reader does not claim the document.
 *
 * @example Usage
 * ```ts
 * import { readIfClaimed } from "./reader.ts";
 * import { toolscoreReader } from "./toolscore.ts";
 * import assert from "node:assert/strict";
 *
 * const doc = { format: "toolscore", calls: [{ tool: "a" }] };
 * assert.equal(readIfClaimed(toolscoreReader, doc, "t.json")?.calls.length, 1);
 * assert.equal(readIfClaimed(toolscoreReader, [], "t.json"), undefined);
 * ```
 */
export function readIfClaimed(
  reader: FormatReader,
  value: unknown,
  source: string,
): Trace | undefined {
  if (reader.readIfClaimed !== undefined) return reader.readIfClaimed(value, source);
  return reader.claims(value) ? reader.read(value, source) : undefined;
}
