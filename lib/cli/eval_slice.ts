/**
 * Turning rendered traces into a {@linkcode RenderedSlice}: their texts
 * joined as `eval` prints them, escaped and encoded once, so the thread that
 * rendered them — a worker or the main thread — also does the escaping and
 * encoding, and the command only writes bytes.
 *
 * @module
 */

import { escapeControl, OWN_COLOR_SEQUENCES } from "../base/terminal_safe.ts";
import type { RenderedResult, RenderedSlice } from "./eval_types.ts";

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/**
 * What goes between two traces' texts: `,\n` between JSON documents, a blank
 * line between console blocks.
 *
 * @param json Whether the run prints JSON.
 * @returns The separator.
 */
export function traceSeparator(json: boolean): string {
  return json ? ",\n" : "\n\n";
}

/**
 * Join, escape and encode rendered traces.
 *
 * @param rendered The traces, in order.
 * @param json Whether the run prints JSON.
 * @param color Whether stdout is coloured (toolscore's own colour codes then stay).
 * @returns The slice.
 *
 * @example Usage
 * ```ts
 * import { sliceOf } from "./eval_slice.ts";
 * import assert from "node:assert/strict";
 *
 * const row = { name: "t", score: 1, grade: "A", selection: 1, argumentF1: 1, sequence: 1, requiredCalls: 1, passed: true };
 * const slice = sliceOf([{ text: "a\x1b", row, violations: 0 }, { text: "b", row, violations: 1 }], true, false);
 * assert.equal(new TextDecoder().decode(slice.bytes), "a\\u001b,\nb");
 * assert.equal(slice.violations, 1);
 * ```
 */
export function sliceOf(
  rendered: readonly RenderedResult[],
  json: boolean,
  color: boolean,
): RenderedSlice {
  const rows = new Array(rendered.length);
  const records = [];
  let violations = 0;
  for (let i = 0; i < rendered.length; i++) {
    const one = rendered[i]!;
    rows[i] = one.row;
    violations += one.violations;
    if (one.record !== undefined) records.push(one.record);
  }
  const text = rendered.map((one) => one.text).join(traceSeparator(json));
  const keep = color ? [OWN_COLOR_SEQUENCES] : [];
  return {
    bytes: text === "" && rendered.length === 0
      ? EMPTY
      : encoder.encode(escapeControl(text, { keep })),
    rows,
    violations,
    records,
    ...(rendered.length === 1 ? { single: rendered[0]!.text } : {}),
  };
}
