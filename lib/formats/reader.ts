/**
 * The shape of a trace reader: one per raw format, in a table the detector
 * walks in order.
 *
 * @module
 */

import type { FormatName, Trace } from "../calls.ts";

/** A reader of one raw trace format. */
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
